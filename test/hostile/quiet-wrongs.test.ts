import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectOneLineError, runVigil, tempDir, writeFiles } from './cli-harness.js';

// Issue 15, item 9: results that were wrong without a word.
describe('quiet wrongs', () => {
  it('the text report of a truncated .gz says it is truncated beside "no failure found"', async () => {
    const healthy = Array.from(
      { length: 2000 },
      (_, i) => `INFO 01-01 00:00:00 [engine.py:1] step ${i} ok`,
    ).join('\n');
    const gz = gzipSync(healthy);
    const dir = await writeFiles({ 'server.log.gz': gz.subarray(0, Math.floor(gz.length / 2)) });
    for (const format of ['text', 'markdown']) {
      const result = await runVigil(['diagnose', join(dir, 'server.log.gz'), '--format', format]);
      expect(result.stdout).toMatch(/no failure (?:line )?found/);
      expect(result.stdout).toMatch(/gzip data ends early/);
    }
  });

  it('reads a snapshot saved with a UTF-8 byte-order mark', async () => {
    const snapshot = (version: string) =>
      `\uFEFF${JSON.stringify({
        schemaVersion: 1,
        environment: {
          python: null,
          sitePackages: ['/x'],
          distributions: [{ name: 'torch', version, installer: 'pip', source: 'index' }],
        },
      })}`;
    const dir = await writeFiles({ 'a.json': snapshot('2.9.0'), 'b.json': snapshot('2.10.0') });
    const result = await runVigil(['diff', join(dir, 'a.json'), join(dir, 'b.json')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('torch');
    expect(result.stdout).toContain('2.10.0');
  });
});

describe('run --log', () => {
  const server = [process.execPath, '-e', 'console.log("hello"); process.exit(0)'];

  it.skipIf(!existsSync('/dev/full'))('/dev/full fails with one line', async () => {
    const result = await runVigil([
      'run',
      '--no-preflight',
      '--no-history',
      '--log',
      '/dev/full',
      '--',
      ...server,
    ]);
    expectOneLineError(result, /--log \/dev\/full is not a regular file/);
  });

  it('a FIFO fails with one line instead of blocking', async () => {
    const dir = await tempDir();
    const fifo = join(dir, 'log.fifo');
    execFileSync('mkfifo', [fifo]);
    const result = await runVigil(['run', '--no-preflight', '--no-history', '--log', fifo, '--', ...server]);
    expectOneLineError(result, /is not a regular file/);
  }, 10_000);

  it('a file still gets the copy', async () => {
    const dir = await tempDir();
    const log = join(dir, 'server.log');
    const result = await runVigil(['run', '--no-preflight', '--no-history', '--log', log, '--', ...server]);
    expect(result.code).toBe(0);
    expect(readFileSync(log, 'utf8')).toContain('hello');
  });
});

describe('rule and snapshot files are read as regular files within their caps', () => {
  it('a FIFO rule file is one error line, not a hang', async () => {
    const dir = await tempDir();
    execFileSync('mkfifo', [join(dir, 'rules.yaml')]);
    const log = join(await writeFiles({ 'x.log': 'INFO hello\n' }), 'x.log');
    const result = await runVigil(['diagnose', log, '--rules', join(dir, 'rules.yaml')]);
    expectOneLineError(result, /not a regular file/);
  }, 10_000);

  it('a rule file over its cap is refused before parsing', async () => {
    const dir = await writeFiles({ 'big.yaml': `# ${'x'.repeat(5 * 1024 * 1024)}\n` });
    const log = join(await writeFiles({ 'x.log': 'INFO hello\n' }), 'x.log');
    const result = await runVigil(['diagnose', log, '--rules', join(dir, 'big.yaml')]);
    expectOneLineError(result, /over the \d+-byte limit/);
  });

  it('a snapshot that is a FIFO or /dev/zero is one error line', async () => {
    const dir = await tempDir();
    execFileSync('mkfifo', [join(dir, 'a.json')]);
    expectOneLineError(await runVigil(['diff', join(dir, 'a.json'), '/dev/zero']), /not a regular file/);
  }, 10_000);
});

describe('tables that grow with the input', () => {
  it('diagnose counts the distinct errors it did not keep', async () => {
    const lines = Array.from(
      { length: 1500 },
      (_, i) =>
        `ERROR 01-01 00:00:00 [engine.py:${i}] RuntimeError: distinct failure ${i} code ${i.toString(36)}`,
    );
    const dir = await writeFiles({ 'server.log': `${lines.join('\n')}\n` });
    const result = await runVigil(['diagnose', join(dir, 'server.log'), '--format', 'json']);
    const diagnosis = JSON.parse(result.stdout) as { warnings: string[]; groups: unknown[] };
    expect(diagnosis.groups.length).toBeLessThanOrEqual(600);
    expect(diagnosis.warnings.join(' ')).toMatch(/\d+ more distinct errors were counted but not kept/);
  });
});
