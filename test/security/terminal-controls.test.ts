import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runVigil, tempDir, writeFiles } from '../hostile/cli-harness.js';

// Issue 31, item 6: colour codes and bidirectional controls from input. `ESC [ 8 m` (conceal) from a
// package's metadata hid the rest of `vigil check`; U+202E (right-to-left override) was printed raw and
// turned the rest of its line around.
const CONCEAL = '\u001b[8m';
const BLACK_ON_BLACK = '\u001b[30;40m';
const BIDI = [
  '\u202e',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200f',
  '\u061c',
];

/** Raw SGR sequences in `text` that Vigil does not write itself (any at all when it does not colour). */
function foreignSgr(text: string, coloured: boolean): string[] {
  /* eslint-disable no-control-regex -- ESC is what these look for */
  const own = /^\u001b\[(?:(?:0|1|2|22|31|32|33|36|39)(?:;(?:0|1|2|22|31|32|33|36|39))*)?m$/;
  return (text.match(/\u001b\[[0-9;:]*m/g) ?? []).filter((sgr) => !coloured || !own.test(sgr));
  /* eslint-enable no-control-regex */
}

function rawBidi(text: string): string[] {
  return [...text]
    .filter((char) => BIDI.includes(char))
    .map((char) => `U+${char.charCodeAt(0).toString(16)}`);
}

async function hostileSite(): Promise<string> {
  const site = join(await tempDir(), 'site-packages');
  const info = join(site, 'evil-1.0.dist-info');
  await mkdir(info, { recursive: true });
  await writeFile(
    join(info, 'METADATA'),
    `Metadata-Version: 2.1\nName: evil${CONCEAL}\nVersion: 1.0${BLACK_ON_BLACK}\nRequires-Dist: missing-dep${CONCEAL}\u202e\n`,
  );
  return site;
}

const COLOUR = { FORCE_COLOR: '1', NO_COLOR: undefined };

describe('check', () => {
  it.each([
    ['text', false],
    ['markdown', false],
    ['json', false],
    ['text', true],
  ] as const)(
    "neutralises SGR and bidi controls from a package's metadata (--format %s, colour %s)",
    async (format, coloured) => {
      const site = await hostileSite();
      const result = await runVigil(['check', '--site-packages', site, '--format', format], {
        env: { PATH: '/nonexistent', ...(coloured ? COLOUR : {}) },
      });
      expect(result.stdout).toContain('missing-dep');
      expect(foreignSgr(result.stdout + result.stderr, coloured)).toEqual([]);
      expect(rawBidi(result.stdout + result.stderr)).toEqual([]);
      expect(result.stdout).toContain('\\u001b[8m');
      // Vigil's own colour still shows.
      // eslint-disable-next-line no-control-regex -- ESC is what this looks for
      if (coloured) expect(result.stdout).toMatch(/\u001b\[(?:1|2|3[1-6])m/);
    },
  );
});

function crashLog(message: string): string {
  return [
    'INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.11.0',
    'Traceback (most recent call last):',
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/engine.py", line 10, in start',
    '    raise RuntimeError(msg)',
    `RuntimeError: model ${message} failed`,
    '',
  ].join('\n');
}

describe('diagnose', () => {
  it.each(['text', 'markdown', 'json'])('shows bidi controls as escapes (--format %s)', async (format) => {
    const dir = await writeFiles({ 'server.log': crashLog(`evil${BIDI.join('')}gpj.exe`) });
    const result = await runVigil(['diagnose', join(dir, 'server.log'), '--format', format]);
    expect(result.code).toBe(1);
    expect(rawBidi(result.stdout)).toEqual([]);
    expect(result.stdout).toContain('\\u202e');
    if (format === 'json') {
      const message = (JSON.parse(result.stdout) as { rootCause: { message: string } }).rootCause.message;
      expect(message).toContain('\u202e'); // JSON decodes the escape to the original text
    }
  });

  it.each([false, true])('neutralises conceal from the log (colour %s)', async (coloured) => {
    const dir = await writeFiles({ 'server.log': crashLog(`${CONCEAL}hidden${BLACK_ON_BLACK}`) });
    const result = await runVigil(['diagnose', join(dir, 'server.log')], { env: coloured ? COLOUR : {} });
    expect(result.code).toBe(1);
    expect(foreignSgr(result.stdout, coloured)).toEqual([]);
    // Parsing drops a log line's colour codes: the text stays, readable.
    expect(result.stdout).toContain('model hidden failed');
  });
});

describe('run', () => {
  it("passes the server's own colour through and resets it before its report", async () => {
    const script = `process.stdout.write('\\u001b[32mINFO\\u001b[0m starting\\n\\u001b[8mRuntimeError: hidden\\n'); process.exit(3);`;
    const result = await runVigil([
      'run',
      '--no-preflight',
      '--no-history',
      '--',
      process.execPath,
      '-e',
      script,
    ]);
    expect(result.code).toBe(3);
    const stdout = result.stdout;
    expect(stdout).toContain('\u001b[32mINFO\u001b[0m starting'); // the server's own colour
    const concealed = stdout.indexOf(`${CONCEAL}RuntimeError: hidden`);
    expect(concealed).toBeGreaterThanOrEqual(0);
    const report = stdout.indexOf('vigil:', concealed);
    expect(report).toBeGreaterThan(concealed);
    expect(stdout.slice(concealed, report)).toContain('\u001b[0m');
  });
});
