/* global window, document, getComputedStyle, Node, Image */
// Functions that run inside the browser page (puppeteer serialises them), kept in plain JavaScript
// because the project's TypeScript has no DOM types. in-page.d.ts gives their signatures.

/** Records every Content-Security-Policy violation, before any of the page's own code runs. */
export function collectViolations() {
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective));
}

/** What a script planted in the log would have set, had it run. */
export function findPwned() {
  return window.__pwned;
}

/** Distinct colours, and the share of pixels unlike the most common one, of a base64 PNG. */
export async function countColours(data) {
  const image = new Image();
  image.src = `data:image/png;base64,${data}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  const pixels = context.getImageData(0, 0, image.width, image.height).data;
  const counts = new Map();
  for (let i = 0; i < pixels.length; i += 4) {
    const key = (pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2];
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = pixels.length / 4;
  return { distinct: counts.size, inkShare: (total - Math.max(...counts.values())) / total };
}

/**
 * Every visible element that holds text, its colour against the first opaque background behind it: at
 * least 4.5:1, or 3:1 for large text (WCAG 2.1 AA). Returns the ones that fall short.
 */
export function measureContrast() {
  const parse = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
  const channel = (v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  const luminance = ([r = 0, g = 0, b = 0]) =>
    0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || c[3] > 0.5) return c;
    }
    return parse(getComputedStyle(document.documentElement).backgroundColor);
  };
  const failures = [];
  for (const el of document.querySelectorAll('body *')) {
    const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (!own || !el.offsetParent) continue;
    const style = getComputedStyle(el);
    const fg = luminance(parse(style.color));
    const bg = luminance(background(el));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) failures.push(`${el.tagName}.${el.className}: ${ratio.toFixed(2)}`);
  }
  return failures;
}
