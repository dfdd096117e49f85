import { spawn } from 'node:child_process';
import { closeSync, openSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, expectRefused, runBin, tempDir, type BinResult } from './helpers.js';

// Issue 31, item 4 (part): `diagnose /dev/zero`, `diagnose - < /dev/zero`, `cat /dev/zero | vigil diagnose -`
// and `yes | vigil diagnose -` read forever. A device is no log file: refused at once with one line and exit
// 2, by its name, through a link named like a log, or as stdin. A pipe with no line break in its first 64
// MiB is no log either. A pipe that does not end is read up to 2 GiB: a failure found there stands (exit 1,
// with a warning); "no failure" in a part says nothing of the rest (exit 2).

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

/**
 * `sh -c SCRIPT | vigil diagnose -`: a real pipe from a real writer, which is stopped once vigil exits (it
 * would write forever).
 */
function runFromPipe(script: string, timeoutMs = 120_000): Promise<BinResult> {
  const writer = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  writer.stdout.on('error', () => undefined);
  return new Promise<BinResult>((done, fail) => {
    const child = spawn(process.execPath, [BIN, 'diagnose', '-'], {
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', VIGIL_CODE_CACHE: '0' },
      stdio: [writer.stdout, 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  }).finally(() => {
    try {
      if (writer.pid !== undefined) process.kill(-writer.pid, 'SIGKILL');
    } catch {
      // It ended on its own (its reader went away).
    }
  });
}

/** A line of 4,000 x: `yes` of it fills 2 GiB in a few seconds (of short lines, in a minute). */
const LONG_LINE = 'x'.repeat(4000);

describe('an endless pipe is not read as a log', () => {
  it('cat /dev/zero | vigil diagnose -: 64 MiB without a line break, refused, exit 2', async () => {
    const result = await runFromPipe('cat /dev/zero', 60_000);
    expectRefused(
      result,
      /^vigil: cannot read stdin: it holds 64 MiB without a line break, so it is not a log \(an endless or binary input such as \/dev\/zero\): pipe a log, or give the log file's path$/,
    );
  }, 90_000);

  it('a log that turns into NUL bytes without end: refused too, nothing half-said', async () => {
    // 200 lines first, so the first 8 KiB read as text: only the bound on a line's length stops it.
    const result = await runFromPipe(
      'i=0; while [ $i -lt 200 ]; do echo "INFO 02-18 06:10:27 serving request $i"; i=$((i+1)); done; cat /dev/zero',
      60_000,
    );
    expectRefused(result, /^vigil: cannot read stdin: it holds 64 MiB without a line break/);
    expect(result.stdout).toBe('');
  }, 90_000);

  it('yes | vigil diagnose -: 2 GiB with no failure in them is no verdict, exit 2', async () => {
    const result = await runFromPipe(`yes ${LONG_LINE}`);
    expectRefused(
      result,
      /^vigil: stdin did not end within 2 GiB and its first 2 GiB hold no failure, which says nothing of the rest \(an endless input, or a longer log: give the file's path, or narrow it, e.g\. journalctl --since\)$/,
    );
    expect(result.stdout).toBe('');
  }, 150_000);

  it('a log over 2 GiB whose failure is in its first 2 GiB: diagnosed, exit 1, with the warning', async () => {
    const crash = [
      'INFO 02-18 06:10:27 [api_server.py:1] Starting vLLM API server',
      'Traceback (most recent call last):',
      '  File "/opt/vllm/worker.py", line 12, in load_model',
      '    model.to("cuda")',
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.',
    ].join('\\n');
    const result = await runFromPipe(`printf '${crash}\\n'; yes ${LONG_LINE}`);
    expect(result.stdout).toMatch(/CUDA out of memory\. Tried to allocate 2\.00 GiB/);
    expect(result.stdout).toMatch(
      /stdin did not end within 2 GiB, so only its first 2 GiB were read \(an endless input, or a longer log/,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
  }, 150_000);

  it('< a regular file is read whole, whatever its size: only a pipe is capped', async () => {
    const dir = tempDir();
    const log = join(dir, 'server.log');
    writeFileSync(log, 'INFO starting\nRuntimeError: CUDA error: out of memory\n');
    const result = await runWithStdin(log, ['diagnose', '-']);
    expect(result.stdout).toMatch(/CUDA error: out of memory/);
    expect(result.stdout).not.toMatch(/did not end/);
    expect(result.code).toBe(1);
  });
});
