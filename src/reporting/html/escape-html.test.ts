import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape-html.js';

describe('escapeHtml', () => {
  it.each([
    ['markup', '<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    [
      'an attribute break-out',
      '"><img src=x onerror=alert(1)>',
      '&quot;&gt;&lt;img src=x onerror=alert(1)&gt;',
    ],
    ['a single quote', "it's", 'it&#39;s'],
    ['an ampersand entity', '&lt;', '&amp;lt;'],
    ['ESC and BEL', '\u001b]52;c;Y3VybA==\u0007', '\\x1b]52;c;Y3VybA==\\x07'],
    ['a C1 control', 'a\u009bb', 'a\\x9bb'],
    ['a right-to-left override', 'exe.\u202etxt', 'exe.&lt;U+202E&gt;txt'],
    ['a zero-width space', 'pip\u200binstall', 'pip&lt;U+200B&gt;install'],
    ['newlines and tabs, kept', 'a\n\tb', 'a\n\tb'],
  ])('neutralises %s', (_name, input, expected) => {
    expect(escapeHtml(input)).toBe(expected);
  });

  it('never lets markup, a control character or a hidden mark through', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const out = escapeHtml(text);
        // eslint-disable-next-line no-control-regex -- exactly what must not survive
        expect(out).not.toMatch(/[<>"'\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
        expect(out.replaceAll(/&(?!amp;|lt;|gt;|quot;|#39;)/g, '')).toBe(out);
      }),
    );
  });
});
