import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeOutput, sanitizeSink, writeControl } from './sanitize-output.js';

/** Every control character left in `text` that is not newline, tab or the ESC of a colour code. */
function survivingControls(text: string): string[] {
  const left: string[] = [];
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    if (!control || text[at] === '\n' || text[at] === '\t') continue;
    if (text[at] === '\u001b' && /^\[[0-9;:]{0,32}m/.test(text.slice(at + 1))) continue;
    left.push(text[at] ?? '');
  }
  return left;
}

/** Fragments attackers use, and the colour codes Vigil writes, in any order. */
const hostile = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '\u001b]52;c;Y3VybCBldmlsfHNo\u0007',
        '\u001b]0;pwned\u0007',
        '\u001b]8;;http://evil/\u001b\\',
        '\u001bc',
        '\u001b[2J',
        '\u001b[31m',
        '\u001b[0m',
        '\u001b[1;31m',
        '\u001b[',
        '\u001b',
        '\b\b\b',
        '\r',
        '\r\n',
        '\n',
        '\t',
        '\u000e',
        '\u000f',
        '\u009b31m',
        '\u009d0;x\u009c',
        '\u007f',
        '\u0000',
        'ok',
        '[31m',
        ';',
        'm',
      ),
      fc.string({ unit: 'binary', maxLength: 12 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('sanitizeOutput', () => {
  it.each([
    ['OSC 52 clipboard write', '\u001b]52;c;Y3VybCBldmlsfHNo\u0007', '\\u001b]52;c;Y3VybCBldmlsfHNo\\u0007'],
    ['OSC 0 title', '\u001b]0;pwned\u0007', '\\u001b]0;pwned\\u0007'],
    ['OSC 8 link', '\u001b]8;;http://x\u001b\\y', '\\u001b]8;;http://x\\u001b\\y'],
    ['terminal reset', 'a\u001bcb', 'a\\u001bcb'],
    ['backspace overwrite', 'error\b\b\b\b\bfine!', 'error\\u0008\\u0008\\u0008\\u0008\\u0008fine!'],
    ['SO/SI', '\u000eX\u000f', '\\u000eX\\u000f'],
    ['C1 CSI', '\u009b2J', '\\u009b2J'],
    ['carriage-return overwrite', 'real cause\rall good', 'real cause\nall good'],
    ['CR LF', 'a\r\nb', 'a\nb'],
    ['a colour code', '\u001b[1;31mred\u001b[39m', '\u001b[1;31mred\u001b[39m'],
    ['plain text', 'RuntimeError: x\n\tat y', 'RuntimeError: x\n\tat y'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeOutput(input)).toBe(expected);
  });

  it('leaves no control character but newline, tab and colour codes (property)', () => {
    fc.assert(
      fc.property(fc.oneof(hostile, fc.string({ unit: 'binary', maxLength: 200 })), (text) => {
        expect(survivingControls(sanitizeOutput(text))).toEqual([]);
      }),
      { numRuns: 5000 },
    );
  });

  it('is idempotent (property)', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const once = sanitizeOutput(text);
        expect(sanitizeOutput(once)).toBe(once);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps JSON valid and decoding to the same text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 100 }), (value) => {
        const json = sanitizeOutput(JSON.stringify({ value }));
        expect(survivingControls(json)).toEqual([]);
        expect((JSON.parse(json) as { value: string }).value).toBe(value);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('sanitizeSink', () => {
  function capture() {
    let text = '';
    return { sink: { write: (chunk: string) => (text += chunk) }, text: () => text };
  }

  it('gives the same text however the stream is cut, Buffers included (property)', () => {
    fc.assert(
      fc.property(hostile, fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), (text, cuts, asBytes) => {
        const out = capture();
        const sink = sanitizeSink(out.sink);
        const bytes = Buffer.from(text, 'utf8');
        const whole = asBytes ? bytes : text;
        const points = [...new Set(cuts.map((cut) => cut % (whole.length + 1)))].sort((a, b) => a - b);
        let from = 0;
        for (const point of [...points, whole.length]) {
          sink.write(whole.slice(from, point));
          from = point;
        }
        sink.flush();
        expect(out.text()).toBe(
          asBytes ? sanitizeOutput(bytes.toString('utf8'), 'any') : sanitizeOutput(text, 'own'),
        );
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['a BOM as the first bytes', [Buffer.from('\ufeffok', 'utf8')], '\ufeffok'],
    ['a BOM cut in two', [Buffer.from([0xef, 0xbb]), Buffer.from([0xbf, 0x6f, 0x6b])], '\ufeffok'],
  ])("passes the server's %s through", (_name, chunks, expected) => {
    const out = capture();
    const sink = sanitizeSink(out.sink);
    for (const chunk of chunks) sink.write(chunk);
    sink.flush();
    expect(out.text()).toBe(expected);
  });

  it("writes Vigil's own controls raw, after the text held back", () => {
    const out = capture();
    const sink = sanitizeSink(out.sink);
    sink.write('loading\u001b');
    writeControl(sink, '\r\u001b[2K');
    sink.write('\u001b]0;x\u0007');
    sink.flush();
    expect(out.text()).toBe('loading\\u001b\r\u001b[2K\\u001b]0;x\\u0007');
  });
});

describe('sanitizeSink with a stalled reader', () => {
  it("drops a child's bytes past the backlog, counts them, and keeps Vigil's own text", () => {
    let text = '';
    let backlog = 0;
    const target = {
      write: (chunk: string) => {
        text += chunk;
        backlog += chunk.length;
      },
      get writableLength() {
        return backlog;
      },
    };
    const sink = sanitizeSink(target);
    const megabyte = Buffer.alloc(1024 * 1024, 'x');
    for (let i = 0; i < 100; i++) sink.write(megabyte);
    expect(text.length).toBeLessThan(10 * 1024 * 1024);
    sink.write('vigil: the report\n');
    expect(text.endsWith('vigil: the report\n')).toBe(true);
    backlog = 0;
    sink.write(Buffer.from('more\n'));
    expect(text).toMatch(/vigil: \d+ bytes of output dropped: the reader did not keep up\nmore\n$/);
  });
});
