import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { standInKubectl } from '../fleet/helpers/stand-ins.js';
import { collectViolations, countColours, findPwned, measureContrast } from './in-page.js';

// The page in a real browser: Debian's chromium, driven by puppeteer-core (which downloads no browser).
const CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path): path is string => path !== undefined && existsSync(path),
);
if (CHROMIUM === undefined) {
  console.warn('skipped: the incident page tests need a real browser: apt-get install chromium');
}

const run = promisify(execFile);
const CLI = resolve('dist/cli/bin.js');
const EXAMPLE = resolve('examples/vllm-kimi-k25-flashinfer-mismatch.journal.log');
/** Screenshots are kept for a person to look at; the folder is ignored by git. */
const SHOTS = resolve('test-output/page');

let browser: Browser;
let dir: string;
let incident: string;
let hostile: string;

async function writePage(name: string, args: string[], env?: Record<string, string>): Promise<string> {
  const out = join(dir, name);
  // Exit 1 is "failure diagnosed": expected here.
  const result = await run(process.execPath, [CLI, 'diagnose', '--format', 'html', ...args], {
    maxBuffer: 64 << 20,
    ...(env ? { env: { ...process.env, ...env } } : {}),
  }).catch((error: { code?: number; stdout?: string }) => {
    if (error.code !== 1 || error.stdout === undefined) throw error;
    return { stdout: error.stdout };
  });
  await writeFile(out, result.stdout);
  return pathToFileURL(out).href;
}

async function open(url: string, options: { javascript?: boolean; width?: number } = {}) {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(options.javascript ?? true);
  await page.setViewport({ width: options.width ?? 1280, height: 900 });
  const requests: string[] = [];
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    requests.push(request.url());
    // Only the page itself may load; anything else would be a request leaving it.
    if (request.url() === url) void request.continue();
    else void request.abort();
  });
  await page.evaluateOnNewDocument(collectViolations);
  await page.goto(url, { waitUntil: 'load' });
  return { page, requests };
}

/** An expression evaluated in the page (the project's TypeScript has no DOM types). */
const inPage = <T>(page: Page, expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;
const text = (page: Page): Promise<string> => inPage(page, 'document.body.innerText');

describe.skipIf(CHROMIUM === undefined)('the incident page in a real browser', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vigil-page-'));
    const log = join(dir, 'hostile.log');
    await writeFile(
      log,
      [
        'Feb 20 10:00:00 h systemd[1]: Starting vllm.service - vLLM...',
        'Feb 20 10:00:01 h vllm[9]: INFO 02-20 10:00:01 [api_server.py:1] vLLM API server version 0.9.0',
        'Feb 20 10:00:02 h vllm[9]: Traceback (most recent call last):',
        'Feb 20 10:00:02 h vllm[9]:   File "/opt/v/lib/python3.12/site-packages/vllm/x.py", line 1, in <module>',
        'Feb 20 10:00:02 h vllm[9]: RuntimeError: <script>window.__pwned=1</script> </textarea><script>window.__pwned=2</script> "><img src=x onerror="window.__pwned=3"> \u202egnp.exe',
        `Feb 20 10:00:02 h vllm[9]: ${'x'.repeat(65_536)}<script>window.__pwned=4</script>`,
        'Feb 20 10:00:03 h systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE',
      ].join('\n'),
    );
    [incident, hostile] = await Promise.all([
      writePage('incident.html', [EXAMPLE]),
      writePage('hostile.html', [log]),
    ]);
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      // As root (CI), chromium's sandbox cannot start.
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    await mkdir(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('shows the root cause, the fix, 8/8 workers and two starts on the timeline', async () => {
    const { page } = await open(incident);
    const body = await text(page);
    expect(body).toContain(
      'RuntimeError: flashinfer-cubin version (0.6.3) does not match flashinfer version (0.6.4)',
    );
    expect(body).toContain('pip install flashinfer-cubin==0.6.4');
    expect(body).toContain('8/8 workers (Worker_TP0..7)');
    expect(await inPage(page, "document.querySelectorAll('.attempt svg').length")).toBe(2);
    expect(await inPage(page, "document.querySelectorAll('.attempt .state-failed').length")).toBe(2);
    await page.close();
  });

  it('makes no request, and its own style and script run under its Content-Security-Policy', async () => {
    const { page, requests } = await open(incident);
    expect(requests).toEqual([incident]);
    expect(await inPage(page, 'window.__violations')).toEqual([]);
    // The style applied (admitted by its hash) and the script ran (it shows the copy button).
    expect(await inPage(page, "getComputedStyle(document.querySelector('.verdict')).borderLeftWidth")).toBe(
      '6px',
    );
    expect(await inPage(page, "document.querySelector('button[data-copy]').hidden")).toBe(false);
    await page.close();
  });

  it('copies the fix with its button', async () => {
    const context = browser.defaultBrowserContext();
    const { page } = await open(incident);
    await context
      .overridePermissions(new URL(incident).origin === 'null' ? 'file://' : incident, [
        'clipboard-read',
        'clipboard-write',
        'clipboard-sanitized-write',
      ])
      .catch(() => undefined);
    await page.click('button[data-copy]');
    await page.waitForFunction("document.querySelector('button[data-copy]').textContent !== 'Copy'");
    const label = await inPage<string>(page, "document.querySelector('button[data-copy]').textContent");
    // Where the browser grants the clipboard the text is copied; where not, it is selected for Ctrl+C.
    const taken =
      label === 'Copied'
        ? await inPage<string>(page, 'navigator.clipboard.readText()')
        : await inPage<string>(page, 'window.getSelection().toString()');
    expect(taken).toBe(
      '/opt/vllm/.venv/bin/python -m pip install flashinfer-cubin==0.6.4 --extra-index-url https://flashinfer.ai/whl',
    );
    await page.close();
  });

  it('reads the same without its script: the fix is plain text and the button stays hidden', async () => {
    const { page } = await open(incident, { javascript: false });
    expect(await text(page)).toContain('pip install flashinfer-cubin==0.6.4');
    expect(await inPage(page, "document.querySelector('button[data-copy]').offsetParent")).toBeNull();
    await page.close();
  });

  it('runs no script from the log and shows the hostile text as text', async () => {
    const { page, requests } = await open(hostile);
    expect(await page.evaluate(findPwned)).toBeUndefined();
    expect(await page.$$('img')).toHaveLength(0);
    const body = await text(page);
    expect(body).toContain('<script>window.__pwned=1</script>');
    expect(body).toContain('<U+202E>');
    expect(requests).toEqual([hostile]);
    await page.close();
  });

  it.each([
    [1280, 'wide'],
    [390, 'phone'],
  ])(
    'is readable at %i px: nothing runs off the side, and the screenshot is not blank',
    async (width, name) => {
      const { page } = await open(incident, { width });
      const overflow = await inPage<number>(page, 'document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      const shot = await page.screenshot({ path: join(SHOTS, `incident-${name}.png`), fullPage: true });
      const blank = await browser.newPage();
      const colours = await blank.evaluate(countColours, Buffer.from(shot).toString('base64'));
      await blank.close();
      expect(colours.distinct).toBeGreaterThan(50);
      expect(colours.inkShare).toBeGreaterThan(0.03);
      await page.close();
    },
  );

  it.each(['light', 'dark'])('passes WCAG AA contrast for its text in the %s scheme', async (scheme) => {
    const { page } = await open(incident);
    await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
    const failures = await page.evaluate(measureContrast);
    expect(failures).toEqual([]);
    await page.close();
  });

  it('shows the 8-pod rollout as one page: both causes, biggest first, and every pod', async () => {
    const kubectl = await standInKubectl('rollout-8-pods');
    const url = await writePage('fleet.html', ['--kube', '-l', 'app=vllm-qwen3', '-n', 'llm'], kubectl.env);
    const { page, requests } = await open(url, { width: 390 });
    const body = await text(page);
    expect(body).toContain('8 of 8 failed');
    expect(body).toMatch(/6 of 8: [\s\S]*CUDA graph/);
    expect(body).toContain('killed from outside: OOMKilled (exit 137)');
    expect(await inPage(page, "document.querySelectorAll('section[id^=report-]').length")).toBe(8);
    // The fix the six pods share is given once, with its copy button; each of their sections links to it.
    expect(await inPage(page, "document.querySelectorAll('section[id^=group-fix-] button').length")).toBe(1);
    expect(await inPage(page, 'document.querySelectorAll(\'a[href="#group-fix-0"]\').length')).toBe(6);
    expect(
      await inPage<number>(page, 'document.documentElement.scrollWidth - window.innerWidth'),
    ).toBeLessThanOrEqual(0);
    expect(requests).toEqual([url]);
    await page.screenshot({ path: join(SHOTS, 'fleet-phone.png'), fullPage: true });
    await page.close();
  });

  it('prints on A4', async () => {
    const { page } = await open(incident);
    const pdf = Buffer.from(await page.pdf({ format: 'A4' }));
    await writeFile(join(SHOTS, 'incident.pdf'), pdf);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    // A4 is 595 x 842 points.
    expect(pdf.toString('latin1')).toMatch(/\/MediaBox \[0 0 59[45]\.\d* 84[12]\.\d*\]/);
    await page.close();
  });
});
