/**
 * Text from a log, made safe to place in HTML text or a quoted attribute: markup characters become
 * entities, control characters a visible `\xNN`, and the Unicode controls that reorder or hide text
 * (bidirectional overrides and isolates, zero-width marks) a visible `<U+202E>`, so a line cannot pass
 * itself off as another. Pure.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what this removes
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const HIDDEN = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const MARKUP = /[&<>"']/g;
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text
    .replace(MARKUP, (c) => ENTITIES[c] ?? c)
    .replace(CONTROLS, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(HIDDEN, (c) => `&lt;U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}&gt;`);
}
