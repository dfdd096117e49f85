import { spawn } from 'node:child_process';
import { closeSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, expectRefused, runBin, tempDir, type BinResult } from './helpers.js';

// Issue 31, item 4 (part): `diagnose /dev/zero`, `diagnose - < /dev/zero` and `yes | vigil diagnose -` read
// forever. A device is no log file: refused at once with one line and exit 2, by its name, through a link
// named like a log, or as stdin. A pipe that does not end is read up to 2 GiB, then said to be cut.

describe('a device given as a log is refused at once', () => {
  it.each(['/dev/zero', '/dev/urandom'])('diagnose %s', async (device) => {
    const result = await runBin(['diagnose', device], { timeoutMs: 15_000 });
    expectRefused(result, new RegExp(`${device}: it is a device, not a log file`));
  });

  it('a link named server.log that points at /dev/zero', async () => {
    const dir = tempDir();
    const log = join(dir, 'server.log');
    symlinkSync('/dev/zero', log);
    const result = await runBin(['diagnose', log], { timeoutMs: 15_000 });
    expectRefused(result, /server\.log: it is a device, not a log file/);
  });

  it('beside a real log, as a missing file is: refused before anything is read', async () => {
    const dir = tempDir();
    const log = join(dir, 'server.log');
    writeFileSync(log, 'INFO starting\nRuntimeError: CUDA error: out of memory\n');
    const result = await runBin(['diagnose', log, '/dev/zero'], { timeoutMs: 15_000 });
    expectRefused(result, /\/dev\/zero: it is a device, not a log file/);
  });
});

/** `vigil diagnose ARGV < device`: stdin is the device itself, not a pipe from it. */
function runWithStdin(device: string, argv: string[]): Promise<BinResult> {
  const fd = openSync(device, 'r');
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', VIGIL_CODE_CACHE: '0' },
      stdio: [fd, 'pipe', 'pipe'],
      timeout: 15_000,
    });
    closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('stdin that is a device is refused at once', () => {
  it.each([
    ['/dev/zero', ['diagnose', '-']],
    ['/dev/urandom', ['diagnose', '-']],
    ['/dev/zero', ['diagnose']],
  ])('diagnose < %s (%s)', async (device, argv) => {
    const result = await runWithStdin(device, argv);
    expectRefused(result, /^vigil: cannot read stdin: it is a device, not a log file$/);
  });

  it('< /dev/null is still an empty log', async () => {
    const result = await runWithStdin('/dev/null', ['diagnose', '-']);
    expectRefused(result, /stdin is empty/);
  });
});

describe('an endless pipe is read up to a bound', () => {
  it('yes | vigil diagnose -: 2 GiB read, then one warning line, in bounded time', async () => {
    const yes = spawn('yes', [], { stdio: ['ignore', 'pipe', 'ignore'] });
    const result = await new Promise<BinResult>((done, fail) => {
      const child = spawn(process.execPath, [BIN, 'diagnose', '-'], {
        env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', VIGIL_CODE_CACHE: '0' },
        stdio: [yes.stdout, 'pipe', 'pipe'],
        timeout: 120_000,
      });
      let stdout = '';
      child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
      child.on('error', fail);
      child.on('close', (code) => done({ code, stdout, stderr: '' }));
    });
    yes.kill();
    expect(result.stdout).toMatch(/no failure (?:line )?found.* in 1073741824 lines/);
    expect(result.stdout).toMatch(
      /warning: stdin did not end within 2 GiB, so only its first 2 GiB were read \(an endless input, or a longer log/,
    );
    expect(result.code).toBe(0);
  }, 150_000);
});
