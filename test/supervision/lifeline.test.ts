import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDiagnosisSession } from '../../src/diagnosis/index.js';
import { superviseServer } from '../../src/supervision/supervise-server.js';
import { logFixture, tempDir } from './helpers/supervise-fixture.js';

// Real processes: a server that ignores SIGINT and SIGTERM, and a vigil killed with SIGKILL.

const FAKE = fileURLToPath(new URL('fixtures/fake-server.mjs', import.meta.url));
const ROOT = resolve(import.meta.dirname, '../..');
const HEALTHY = logFixture('vllm-healthy-start');

/** Running, not a zombie waiting for PID 1 to reap it. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 50));
  }
  return true;
}

async function deafServer(killGraceMs: number) {
  const dir = tempDir();
  const pidFile = join(dir, 'pid');
  const handle = await superviseServer({
    command: process.execPath,
    args: [FAKE, 'deaf', HEALTHY, '--until', '5', '--pid-file', pidFile],
    stdout: null,
    stderr: null,
    killGraceMs,
    createDiagnosisSession: () => createDiagnosisSession(),
  });
  onTestFinished(() => handle.forward('SIGKILL'));
  await waitFor(() => existsSync(pidFile), 10_000);
  return handle;
}

describe('stopping a server that will not stop', () => {
  it('escalates to SIGKILL once the kill grace is over', async () => {
    const handle = await deafServer(800);
    const asked = Date.now();
    handle.forward('SIGINT');
    const result = await handle.done;
    expect(result.exit.signal).toBe('SIGKILL');
    expect(result.outcome).toBe('interrupted');
    expect(Date.now() - asked).toBeGreaterThanOrEqual(700);
  });

  it('a second interrupt sends SIGKILL at once', async () => {
    const handle = await deafServer(60_000);
    handle.forward('SIGINT');
    await new Promise((done) => setTimeout(done, 200));
    const asked = Date.now();
    handle.forward('SIGINT');
    const result = await handle.done;
    expect(result.exit.signal).toBe('SIGKILL');
    expect(Date.now() - asked).toBeLessThan(5000);
  });
});

describe('vigil killed with SIGKILL', () => {
  it.each([
    ['a server that stops on SIGTERM', 'stall'],
    ['a server that ignores SIGTERM', 'deaf'],
  ])('takes %s with it (the lifeline)', async (_name, scenario) => {
    const dir = tempDir();
    const pidFile = join(dir, 'pid');
    const vigil = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(ROOT, 'src/cli/bin.ts'),
        'run',
        '--no-preflight',
        '--no-history',
        '--quiet',
        '--kill-grace',
        '1s',
        '--',
        process.execPath,
        FAKE,
        scenario,
        HEALTHY,
        '--until',
        '5',
        '--pid-file',
        pidFile,
      ],
      { cwd: ROOT, stdio: 'ignore', env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1' } },
    );
    onTestFinished(() => {
      vigil.kill('SIGKILL');
    });
    // The stall scenario writes no PID file: find the server as vigil's child.
    const serverPid = (): number | null => {
      if (existsSync(pidFile)) return Number(readFileSync(pidFile, 'utf8'));
      const children = join('/proc', String(vigil.pid), 'task', String(vigil.pid), 'children');
      const found = existsSync(children) ? readFileSync(children, 'utf8').trim().split(' ') : [];
      for (const pid of found) {
        const cmdline = existsSync(`/proc/${pid}/cmdline`)
          ? readFileSync(`/proc/${pid}/cmdline`, 'utf8')
          : '';
        if (cmdline.includes('fake-server.mjs')) return Number(pid);
      }
      return null;
    };
    let pid: number | null = null;
    const deadline = Date.now() + 30_000;
    while (pid === null && Date.now() < deadline) {
      pid = serverPid();
      if (pid === null) await new Promise((done) => setTimeout(done, 100));
    }
    expect(pid).not.toBeNull();
    const server = pid ?? 0;
    onTestFinished(() => {
      if (alive(server)) process.kill(server, 'SIGKILL');
    });
    // Past its last line: a server still writing would die of the closed pipe, lifeline or not.
    await new Promise((done) => setTimeout(done, 1500));
    expect(alive(server)).toBe(true);
    vigil.kill('SIGKILL');
    // SIGTERM at once, SIGKILL after the 1 s grace.
    expect(await waitFor(() => !alive(server), 10_000)).toBe(true);
  });
});
