import { execFile } from 'node:child_process';
import { readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, expectRefused, runBin, tempDir, type BinResult } from './helpers.js';

// Issue 31, item 8 (units): values systemd would ignore or misread, a root `ExecStart=+`, a server's API key
// written into ExecStart under a header that promises tokens never go there, and `--env-file` eaten by
// Node itself in the README's `node dist/cli/bin.js` form. Node 20 exits on a missing --env-file before the
// script runs, so that form cannot be mended in bin.js: the README's form is `node -- dist/cli/bin.js`, the
// installed bin's #! line is `node --`, and `--environment-file` is the flag's own name.

function unit(flags: string[], server: string[] = ['/bin/true', 'serve']) {
  return runBin(['unit', '--name', 'vllm-x', ...flags, '--', ...server], { env: { HOME: tempDir() } });
}

describe('vigil unit refuses values systemd would not take as meant', () => {
  it.each([
    [['--start-limit-burst', '1e308'], /--start-limit-burst "1e308" must be a whole number from 1 to/],
    [['--start-limit-burst', '99999999999'], /--start-limit-burst "99999999999" must be a whole number/],
    [['--gpu-wait', '100000000h'], /--gpu-wait "100000000h" is longer than/],
    [['--restart-sec', '9999999d'], /--restart-sec "9999999d" is longer than/],
    [['--load-time', '1e400'], /--load-time "1e400" is (longer than|not a duration)/],
  ])('%j', async (flags, pattern) => {
    const result = await unit(flags);
    expectRefused(result, pattern);
    expect(result.stdout).toBe('');
  });

  it.each(['+/bin/sh', '-/bin/sh', '!/usr/bin/vigil', '@/bin/sh', 'vigil'])(
    '--vigil %s: no systemd prefix in ExecStart',
    async (vigil) => {
      const result = await unit(['--supervise', '--vigil', vigil]);
      expectRefused(result, /--vigil .* must be an absolute path/);
      expect(result.stdout).not.toMatch(/^ExecStart(Pre)?=[+!@-]/m);
    },
  );
});

describe("a server's --api-key goes to the environment file, never into the unit", () => {
  it.each([
    [['--api-key', 'sk-live-4f9a8b7c6d5e'], 'sk-live-4f9a8b7c6d5e'],
    [['--api-key=sk-live-0a1b2c3d4e5f'], 'sk-live-0a1b2c3d4e5f'],
  ])('%j', async (flag, key) => {
    const dir = tempDir();
    const envFile = join(dir, 'vigil', 'x.env');
    const result = await runBin(
      ['unit', '--name', 'vllm-x', '--environment-file', envFile, '--', '/bin/true', 'serve', ...flag],
      { env: { HOME: dir } },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain(key);
    expect(result.stderr).not.toContain(key);
    expect(result.stdout).toMatch(/^ExecStart=\/bin\/true serve --api-key[ =]\$\{VIGIL_API_KEY\}$/m);
    expect(readFileSync(envFile, 'utf8')).toBe(`VIGIL_API_KEY=${key}\n`);
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
  });
});

describe("the environment file's flag reaches vigil in a clone", () => {
  it('node dist/cli/bin.js unit --environment-file F, F not there yet', async () => {
    const result = await runBin([
      'unit',
      '--name',
      'x',
      '--environment-file',
      '/etc/vigil/missing.env',
      '--',
      '/bin/true',
    ]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('EnvironmentFile=-/etc/vigil/missing.env');
  });

  it('node -- dist/cli/bin.js unit --env-file F (the README form), F not there yet', async () => {
    const result = await runBin(
      ['unit', '--name', 'x', '--env-file', '/etc/vigil/missing.env', '--', '/bin/true'],
      {
        nodeArgs: ['--'],
      },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('EnvironmentFile=-/etc/vigil/missing.env');
  });

  it('vigil unit --env-file F as installed (the bin run through its #! line), F not there yet', async () => {
    const bin = join(tempDir(), 'vigil');
    symlinkSync(BIN, bin);
    const result = await new Promise<BinResult>((done) => {
      execFile(
        bin,
        ['unit', '--name', 'x', '--env-file', '/etc/vigil/missing.env', '--', '/bin/true'],
        { env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', VIGIL_CODE_CACHE: '0' }, timeout: 30_000 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
          done({ code, stdout, stderr });
        },
      );
    });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('EnvironmentFile=-/etc/vigil/missing.env');
  });
});
