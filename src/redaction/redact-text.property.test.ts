import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactText } from './redact-text.js';

const ALNUM = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const UPPER_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const alnum = (min: number, max: number, chars = ALNUM) =>
  fc.string({ unit: fc.constantFrom(...chars), minLength: min, maxLength: max });
/** A random credential body: long, with a digit, as real ones are. */
const secretBody = fc.tuple(alnum(15, 40), fc.integer({ min: 0, max: 9 })).map(([s, d]) => `${s}${d}`);

/** A planted secret: the text to plant and the part that must not survive. */
const planted: fc.Arbitrary<{ text: string; secret: string }> = fc.oneof(
  alnum(34, 40).map((s) => ({ text: `hf_${s}`, secret: s })),
  secretBody.map((s) => ({ text: `sk-${s}${s}`, secret: s })),
  secretBody.map((s) => ({ text: `sk-proj-${s}_${s}`, secret: s })),
  alnum(16, 16, UPPER_DIGITS).map((s) => ({ text: `AKIA${s}`, secret: s })),
  secretBody.map((s) => ({ text: `Authorization: Bearer ${s}`, secret: s })),
  secretBody.map((s) => ({ text: `HF_TOKEN=${s}`, secret: s })),
  secretBody.map((s) => ({ text: `OPENAI_API_KEY="${s}"`, secret: s })),
  secretBody.map((s) => ({ text: `--api-key ${s}`, secret: s })),
  secretBody.map((s) => ({ text: `--hf-token=${s}`, secret: s })),
  secretBody.map((s) => ({ text: `{'api_key': '${s}'}`, secret: s })),
  secretBody.map((s) => ({ text: `Namespace(api_key='${s}')`, secret: s })),
  secretBody.map((s) => ({ text: `api_key: Some("${s}")`, secret: s })),
  secretBody.map((s) => ({ text: `https://bob:${s}@example.com/x`, secret: s })),
);

/** Text built from the fragments the rules look for, so that rules meet each other's output. */
const logLike = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'HF_TOKEN',
        '=',
        ':',
        ' ',
        '\n',
        "'",
        '"',
        ',',
        '[',
        ']',
        '(',
        ')',
        '{',
        '}',
        '-',
        '--',
        '--api-key',
        '--token',
        'api_key',
        'token',
        'hf_',
        'sk-',
        'sk-proj-',
        'AKIA',
        'Bearer ',
        'Authorization: ',
        'https://',
        '@',
        'Some(',
        '[REDACTED]',
        'None',
        '$',
        '<',
        '&',
        '?',
        '.',
        '_',
        'password',
        'Basic ',
        'bearer',
        'authorization',
        'ghp_',
        'github_pat_',
        'ASIA',
        '://',
        'aws_secret_access_key',
        ' = ',
        "', '",
        'Some("',
        '\t',
        'x=',
        'Environment=',
      ),
      alnum(1, 40),
      fc.string({ maxLength: 8 }),
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('redactText (properties)', () => {
  it('never throws, on any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), (text) => {
        expect(typeof redactText(text)).toBe('string');
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(logLike, fc.string({ maxLength: 200 })), (text) => {
        const once = redactText(text);
        expect(redactText(once)).toBe(once);
      }),
      { numRuns: 5000 },
    );
  });

  it('removes a planted secret from any surrounding text', () => {
    fc.assert(
      fc.property(
        fc.oneof(logLike, fc.string()),
        planted,
        fc.oneof(logLike, fc.string()),
        (before, { text, secret }, after) => {
          const out = redactText(`${before} ${text} ${after}`);
          expect(out).not.toContain(secret);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('leaves text without secret-like fragments unchanged', () => {
    const plain = fc.string({
      unit: fc.constantFrom(...'abcdefgh ijk.,/()0123456789\n'.split('')),
      maxLength: 300,
    });
    fc.assert(
      fc.property(plain, (text) => {
        expect(redactText(text)).toBe(text);
      }),
    );
  });
});

describe('redactText runs in linear time', () => {
  // Each input would take minutes on a rule with quadratic backtracking.
  it.each([
    ['letters', 'a'],
    ['upper-case name run', 'A_'],
    ['hf_ prefixes', 'hf_'],
    ['sk- prefixes', 'sk-'],
    ['flags', '--a'],
    ['assignments', 'a='],
    ['open quotes', "token='"],
    ['alternating quotes', 'token="x token=\'y '],
    ['schemes', 'https://'],
    ['user:password pairs', 'a:b'],
    ['Bearer words', 'Bearer '],
    ['Authorization headers', 'Authorization: '],
    ['list openers', "api_key: ['a', "],
    ['nested assignments', 'A_TOKEN='],
    ['nested flags', '--token --api-key=x'],
    ['names in quoted items', "api_key: ['api_key: [', "],
    ['open quote then closed ones', 'token="x" '],
    ['percent bytes', '%41'],
    ['percent-encoded runs', 'a%41 '],
    ['base64 runs of text', 'QUJDREVGR0hJSktMTU5P '],
    ['one base64 run', 'QUJD'],
    ['client commands', 'mysql -p'],
    ['client names in one word', 'sshpass'],
    ['cut tokens', 'hf_abc\n'],
    ['query secrets', '?token='],
  ])('%s', (_name, unit) => {
    const text = unit.repeat(Math.ceil(1_000_000 / unit.length));
    const started = performance.now();
    redactText(text);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
