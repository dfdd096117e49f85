import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJournal } from '../../src/sources/journal/follow-journal.js';
import { localRunner, runCommand, startCommand } from '../../src/system/run-command.js';
import { pathWith, readAll, tempDir, writeFakeCommand } from './helpers/fake-command.js';

/** Running, not a zombie waiting for a parent that does not reap (PID 1 in some containers). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

async function pidFrom(file: string): Promise<number> {
  for (let tries = 0; tries < 50; tries += 1) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (text.trim() !== '') return Number(text.trim());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no pid in ${file}`);
}

describe('the command runner', () => {
  it('kills the whole process group on a timeout, the wrapper script and the child it started', async () => {
    const dir = await tempDir();
    const pidFile = join(dir, 'child.pid');
    const started = Date.now();
    await expect(
      runCommand('sh', ['-c', `sleep 30 & echo $! > ${pidFile}; wait`], { timeoutMs: 300, label: 'wrapper' }),
    ).rejects.toThrow('wrapper did not finish within 0.3 s');
    expect(Date.now() - started).toBeLessThan(5000);
    const child = await pidFrom(pidFile);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(alive(child)).toBe(false);
  });

  it('stops waiting a grace period after the program exited when an escaped child holds the pipe', async () => {
    const dir = await tempDir();
    const pidFile = join(dir, 'child.pid');
    const started = Date.now();
    // setsid puts the child out of the group, so only the grace period can end the wait for the pipe.
    const result = await runCommand(
      'sh',
      ['-c', `echo out; setsid sleep 30 & echo $! > ${pidFile}; exit 3`],
      {
        timeoutMs: 20_000,
      },
    );
    expect(result).toMatchObject({ code: 3, stdout: 'out\n' });
    expect(Date.now() - started).toBeLessThan(8000);
    const child = await pidFrom(pidFile);
    if (alive(child)) process.kill(child, 'SIGKILL');
  });

  it('streams with the same grace, and stop() ends the stream quietly', async () => {
    const stream = await startCommand('sh', ['-c', 'echo first; exec sleep 30'], {
      timeoutMs: Infinity,
      env: process.env,
    });
    const iterator = stream.chunks[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(Buffer.from(first.value as Uint8Array).toString()).toBe('first\n');
    stream.stop();
    expect((await iterator.next()).done).toBe(true);
  });

  it('keeps the existing wording for a missing program and a failing one', async () => {
    await expect(
      localRunner.start('no-such-program-x', [], { timeoutMs: 1000, env: process.env }),
    ).rejects.toThrow(
      'no-such-program-x was not found on PATH; install it or run vigil where it is available',
    );
    const failing = await localRunner.start('sh', ['-c', 'echo boom >&2; exit 4'], {
      timeoutMs: 1000,
      env: process.env,
      label: 'tool',
    });
    await expect(readAll(failing.chunks)).rejects.toThrow('tool failed (status 4): boom');
  });
});

describe('watch reading a journal bigger than 64 MiB', () => {
  it('streams it to its newest entry instead of keeping only the first 64 MiB', async () => {
    const dir = await tempDir();
    // 2.2 million JSON entries of ~33 bytes: about 70 MiB of journalctl output, the newest one last.
    await writeFakeCommand(
      dir,
      'journalctl',
      `yes '{"MESSAGE":"loading","__CURSOR":"c"}' | head -n 2200000; echo '{"MESSAGE":"newest","__CURSOR":"end"}'`,
    );
    let count = 0;
    let last = '';
    const cursor = await readJournal({ unit: 'vllm.service', env: pathWith(dir) }, { lines: 10 }, (entry) => {
      count += 1;
      last = String(entry.MESSAGE);
    });
    expect(count).toBe(2_200_001);
    expect(last).toBe('newest');
    expect(cursor).toBe('end');
  }, 60_000);
});
