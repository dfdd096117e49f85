import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { findExecutable } from '../../src/environment/find-executable.js';
import { expectOneLineError, runVigil, tempDir } from '../hostile/cli-harness.js';

/**
 * Never a false all-clear: input that holds no log line, is binary, compressed or a journal database is
 * read for what it is, or refused with one line and exit 2, never "no failure found".
 */
const ROOT = resolve(import.meta.dirname, '../..');
const INCIDENT = readFileSync(join(ROOT, 'examples/vllm-kimi-k25-flashinfer-mismatch.journal.log'));
const JOURNAL = join(ROOT, 'test/fixtures/journal/vllm-flashinfer-mismatch.journal');
// The headline wraps to the report's width (80 here): the words may break across its two lines.
const ROOT_CAUSE = /flashinfer-cubin version \(0\.6\.3\) does not match\s+flashinfer version \(0\.6\.4\)/;
const env = { PATH: process.env.PATH };

function expectIncident(result: { code: number; stdout: string; stderr: string }): void {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(1);
  expect(result.stdout).toMatch(ROOT_CAUSE);
}

function need(program: string, debian: string): string | null {
  const found = findExecutable(program, env);
  if (found === null) console.warn(`skipping the ${program} test: install ${debian}`);
  return found;
}

describe('input that holds no log line', () => {
  const notice = [
    'Hint: You are currently not seeing messages from other users and the system.',
    "      Users in groups 'adm', 'systemd-journal' can see all messages.",
    '      Pass -q to turn off this notice.',
    '-- No entries --',
    '',
  ].join('\n');

  it.each([
    ['-- No entries -- alone', '-- No entries --\n'],
    ['with the hint of a user outside systemd-journal', notice],
  ])('journalctl -u WRONG | vigil diagnose - (%s): one line, exit 2', async (_name, stdin) => {
    const result = await runVigil(['diagnose', '-'], { stdin, env });
    expectOneLineError(
      result,
      /^vigil: stdin holds no log line, only journalctl's "-- No entries --": check the unit name/,
    );
    expect(result.stdout).toBe('');
  });

  it('/dev/null', async () => {
    expectOneLineError(await runVigil(['diagnose', '/dev/null'], { env }), /\/dev\/null is empty/);
  });

  it('a file of blank lines', async () => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'blank.log'), '\n\n   \n');
    expectOneLineError(await runVigil(['diagnose', join(dir, 'blank.log')], { env }), /only blank lines/);
  });

  it('a binary program (an ELF file: this node)', async () => {
    expectOneLineError(
      await runVigil(['diagnose', process.execPath], { env }),
      /is an ELF executable or library, not a log/,
    );
  });
});

describe('compressed logs, through the system decompressor', () => {
  it.each([
    ['xz', 'xz-utils', '.xz'],
    ['bzip2', 'bzip2', '.bz2'],
    ['zstd', 'zstd', '.zst'],
  ])('%s: read through the real program, the root cause found', async (program, debian, suffix) => {
    const tool = need(program, debian);
    if (tool === null) return;
    const dir = await tempDir();
    // Renamed on purpose: the magic bytes decide, not the name.
    const file = join(dir, `server.log${suffix}.1`);
    writeFileSync(file, execFileSync(tool, program === 'zstd' ? ['-q', '-c'] : ['-c'], { input: INCIDENT }));
    const result = await runVigil(['diagnose', file, '--format', 'json'], { env });
    expect(result.code).toBe(1);
    const diagnosis = JSON.parse(result.stdout) as {
      input: { formats: string[] };
      rootCause: { message: string };
    };
    expect(diagnosis.rootCause.message).toMatch(ROOT_CAUSE);
    expect(diagnosis.input.formats).toContain(program);
    // And the same from stdin.
    expectIncident(await runVigil(['diagnose', '-'], { stdin: readFileSync(file), env }));
  });

  it('refuses with what to install when the decompressor is missing', async () => {
    const tool = need('xz', 'xz-utils');
    if (tool === null) return;
    const dir = await tempDir();
    writeFileSync(join(dir, 'server.log.xz'), execFileSync(tool, ['-c'], { input: INCIDENT }));
    expectOneLineError(
      await runVigil(['diagnose', join(dir, 'server.log.xz')], { env: { PATH: dir } }),
      /server\.log\.xz is xz-compressed and xz is not installed: install it \(apt-get install xz-utils\)/,
    );
  });

  it('still reads gzip itself', async () => {
    expectIncident(await runVigil(['diagnose', '-'], { stdin: gzipSync(INCIDENT), env }));
  });
});

describe('UTF-16 logs (PowerShell >)', () => {
  const utf16 = (text: string, bom: boolean): Buffer =>
    Buffer.concat([bom ? Buffer.from([0xff, 0xfe]) : Buffer.alloc(0), Buffer.from(text, 'utf16le')]);

  it.each([
    ['with its BOM', true],
    ['without a BOM, by its NUL pattern', false],
  ])('decoded to text %s', async (_name, bom) => {
    const dir = await tempDir();
    writeFileSync(join(dir, 'server.log'), utf16(INCIDENT.toString('utf8').replaceAll('\n', '\r\n'), bom));
    const result = await runVigil(['diagnose', join(dir, 'server.log'), '--format', 'json'], { env });
    expect(result.code).toBe(1);
    const diagnosis = JSON.parse(result.stdout) as { rootCause: { message: string; line: string } };
    expect(diagnosis.rootCause.message).toMatch(ROOT_CAUSE);
    expect(diagnosis.rootCause.line).not.toContain('\0');
  });

  it('big-endian with its BOM', async () => {
    const le = Buffer.from(INCIDENT.toString('utf8'), 'utf16le');
    const be = Buffer.alloc(le.length);
    for (let i = 0; i + 1 < le.length; i += 2) {
      be[i] = le[i + 1] ?? 0;
      be[i + 1] = le[i] ?? 0;
    }
    expectIncident(
      await runVigil(['diagnose', '-'], { stdin: Buffer.concat([Buffer.from([0xfe, 0xff]), be]), env }),
    );
  });
});

// Written once by the real systemd-journal-remote (test/fixtures/journal/README.md); read here by the real journalctl.
describe('a systemd journal file given as a plain file', () => {
  it('is read through journalctl --file, not dumped as bytes', async () => {
    if (need('journalctl', 'systemd') === null) return;
    const result = await runVigil(['diagnose', JOURNAL], { env });
    expectIncident(result);
    // The database's own bytes never reach the report.
    // eslint-disable-next-line no-control-regex
    expect(result.stdout).not.toMatch(/LPKSHHRH|[\u0000-\u0008]/);
    const json = await runVigil(['diagnose', JOURNAL, '--format', 'json'], { env });
    const diagnosis = JSON.parse(json.stdout) as { input: { formats: string[]; lines: number } };
    expect(diagnosis.input.formats).toContain('journal-file');
    // Every entry is one line of journalctl's short output, as `journalctl --file F | vigil diagnose -` sees.
    const shown = execFileSync('journalctl', ['--no-pager', '--utc', '--all', `--file=${JOURNAL}`], {
      encoding: 'utf8',
    });
    expect(diagnosis.input.lines).toBe(shown.trimEnd().split('\n').length);
  });

  it('is read from journalctl -o json as from its short output', async () => {
    if (need('journalctl', 'systemd') === null) return;
    const stdin = execFileSync('journalctl', ['--no-pager', '--output=json', `--file=${JOURNAL}`]);
    const result = await runVigil(['diagnose', '-'], { stdin, env });
    expectIncident(result);
    // The report quotes the server's lines, not journald's records around them.
    expect(result.stdout).not.toContain('__CURSOR');
  });

  it('is refused with the command to use when journalctl is missing', async () => {
    const dir = await tempDir();
    expectOneLineError(
      await runVigil(['diagnose', JOURNAL], { env: { PATH: dir } }),
      /vllm-flashinfer-mismatch\.journal is a systemd journal file: journalctl is not installed \(apt-get install systemd\); or, where it is: journalctl --file=\S+ \| vigil diagnose -/,
    );
  });

  it('on stdin, is refused with the command to use', async () => {
    expectOneLineError(
      await runVigil(['diagnose', '-'], { stdin: readFileSync(JOURNAL), env }),
      /stdin is a systemd journal file: give its path .* or run journalctl --file=FILE \| vigil diagnose -/,
    );
  });
});
