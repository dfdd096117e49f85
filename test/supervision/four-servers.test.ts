import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { logFixture, tempDir } from './helpers/supervise-fixture.js';

// Four ways a start goes, each played by a real process (fixtures/fake-server.mjs), supervised by `vigil
// run` (the server as its child) and by `vigil watch --docker` (a docker stand-in whose `logs` runs the same
// process as the container and whose `inspect` reports its exit in docker's JSON; no docker daemon here).

const FAKE = fileURLToPath(new URL('fixtures/fake-server.mjs', import.meta.url));
const HEALTHY = logFixture('vllm-healthy-start');
const DEAD = logFixture('vllm-engine-dead-while-serving');
const MODEL = 'Qwen/Qwen2.5-7B-Instruct';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** Date.now() of the first report written to stdout. */
  reportedAt: number | null;
}

async function vigil(argv: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  let reportedAt: number | null = null;
  const code = await runCli(argv, {
    stdout: {
      write: (text: string) => {
        reportedAt ??= Date.now();
        stdout += text;
      },
    },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: new PassThrough(),
    env: { PATH: process.env.PATH, HOME: tempDir(), NO_COLOR: '1', ...env },
    cwd: process.cwd(),
  });
  return { code, stdout, stderr, reportedAt };
}

type Scenario = (dir: string) => { server: string[]; env?: Record<string, string> };

/** The server as `vigil run` starts it. */
const serverArgs = (...args: string[]): string[] => [process.execPath, FAKE, ...args];

const stalls: Scenario = () => ({ server: serverArgs('stall', HEALTHY, '--until', '12') });
const downloads: Scenario = (dir) => ({
  server: serverArgs(
    'download',
    HEALTHY,
    '--blobs',
    join(dir, 'hf', 'hub', `models--${MODEL.replace('/', '--')}`, 'blobs'),
    '--seconds',
    '3',
    '--model',
    MODEL,
  ),
  env: { HF_HOME: join(dir, 'hf') },
});
const engineDies: Scenario = (dir) => ({
  server: serverArgs(
    'engine-dies',
    HEALTHY,
    '--dead',
    DEAD,
    '--after',
    '500',
    '--stamp',
    join(dir, 'dead-at'),
  ),
});
const dyingWhileLoading: Scenario = (dir) => ({
  server: serverArgs(
    'engine-dies',
    HEALTHY,
    '--until',
    '12',
    '--dead',
    DEAD,
    '--after',
    '500',
    '--stamp',
    join(dir, 'dead-at'),
  ),
});
const killed: Scenario = (dir) => ({
  server: serverArgs('sigkill', HEALTHY, '--until', '12', '--pid-file', join(dir, 'pid')),
});

/** A journalctl whose `-k` prints the kernel's OOM-kill line for the PID the server wrote. */
function fakeKernelLog(dir: string, otherPid?: number): string {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(
    join(bin, 'journalctl'),
    `#!/bin/sh\n[ "$1" = -k ] || exit 1\necho "Out of memory: Killed process ${otherPid ?? `$(cat ${join(dir, 'pid')})`} (python3) total-vm:98765432kB, anon-rss:87654321kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:180000kB oom_score_adj:0"\n`,
  );
  chmodSync(join(bin, 'journalctl'), 0o755);
  return `${bin}:${process.env.PATH ?? ''}`;
}

/**
 * A docker stand-in: `inspect` answers in docker's JSON from what `logs` recorded; `logs` runs the server
 * as the container's process (stdout and stderr are its log) and records its exit status when it ends.
 */
function fakeDocker(dir: string, server: string[], options: { oomKilled?: boolean } = {}): string {
  const bin = join(dir, 'docker-bin');
  mkdirSync(bin, { recursive: true });
  const state = join(dir, 'container-exit');
  const quoted = server.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  writeFileSync(
    join(bin, 'docker'),
    `#!/bin/sh
case "$1" in
  inspect)
    if [ -f ${state} ]; then running=false; code=$(cat ${state}); else running=true; code=0; fi
    printf '[{"State":{"Running":%s,"Restarting":false,"ExitCode":%s,"OOMKilled":${options.oomKilled === true ? 'true' : 'false'},"StartedAt":"2026-12-01T10:00:00.000000000Z"},"RestartCount":0}]\\n' "$running" "$code" ;;
  logs)
    ${quoted} 2>&1 &
    pid=$!
    trap 'kill $pid 2>/dev/null' TERM
    # The shell's own word on the job ("Killed") is no part of the container's log.
    exec 2>/dev/null
    wait $pid
    echo $? > ${state} ;;
  *) exit 1 ;;
esac
`,
  );
  chmodSync(join(bin, 'docker'), 0o755);
  return `${bin}:${process.env.PATH ?? ''}`;
}

const run = (server: string[], ...flags: string[]): string[] => [
  'run',
  '--no-preflight',
  '--quiet',
  ...flags,
  '--',
  ...server,
];

describe('vigil run with four real servers', () => {
  it('a stall is a warning with the phase, the last line and how long; the start goes on', async () => {
    const { server } = stalls(tempDir());
    const result = await vigil(run(server, '--stall-after', '1s', '--timeout', '3s'));
    expect(result.stderr).toMatch(
      /^vigil: warning: stalled in phase "loading weights": nothing advanced it for 1\.\ds \(--stall-after 1s\); still waiting \(--stall-timeout stops it\)\. its last line: Loading safetensors checkpoint shards: {3}0% Completed \| 0\/4/m,
    );
    // The warning did not end the start: the timeout did, two seconds later.
    expect(result.code).toBe(124);
    expect(result.stdout).toMatch(
      /^vigil: the server was not ready after 3\.\ds: it stalled in phase "loading weights"/m,
    );
    expect(result.stdout).toContain('The log holds no error line');
    expect(result.stdout).not.toContain('no failure found');
    expect(result.stdout).not.toContain('✔');
  });

  it('--stall-timeout turns the stall into a failure', async () => {
    const { server } = stalls(tempDir());
    const result = await vigil(run(server, '--stall-after', '1s', '--stall-timeout', '2s'));
    expect(result.code).toBe(124);
    expect(result.stdout).toMatch(
      /^vigil: the server stalled in phase "loading weights" \(shard 0\/4\): nothing advanced it for 2\.\ds \(--stall-timeout\)\.$/m,
    );
    expect(result.stdout).toMatch(/^vigil: its last line: Loading safetensors checkpoint shards/m);
  });

  it('a download that grows its .incomplete file in silence is loading, not stalled', async () => {
    const dir = tempDir();
    const { server, env } = downloads(dir);
    const result = await vigil(run(server, '--stall-after', '1500ms'), env);
    expect(result.stderr).not.toContain('stalled');
    expect(result.stderr).toMatch(/^vigil: ready after \d/m);
    expect(result.code).toBe(0);
  });

  it('an engine that dies while its API process runs fails within 5 s, with the diagnosis; run stops it', async () => {
    const dir = tempDir();
    const { server } = engineDies(dir);
    const result = await vigil(run(server));
    const deadAt = Number(readFileSync(join(dir, 'dead-at'), 'utf8'));
    expect(result.reportedAt).not.toBeNull();
    const latencyMs = (result.reportedAt ?? 0) - deadAt;
    console.log(`dead engine reported ${latencyMs} ms after its death line`);
    expect(latencyMs).toBeLessThan(5000);
    expect(result.stdout).toMatch(
      /^vigil: the server's engine died while serving after .*, though its process still runs\.$/m,
    );
    expect(result.stdout).toMatch(
      /^vigil: the engine said: ERROR .*EngineCore encountered a fatal error\.$/m,
    );
    expect(result.stdout).toContain('torch.OutOfMemoryError: CUDA out of memory');
    expect(result.code).toBe(1);
  });

  it('an engine that dies during the load fails within 5 s too', async () => {
    const dir = tempDir();
    const result = await vigil(run(dyingWhileLoading(dir).server));
    const latencyMs = (result.reportedAt ?? 0) - Number(readFileSync(join(dir, 'dead-at'), 'utf8'));
    expect(latencyMs).toBeLessThan(5000);
    expect(result.stdout).toMatch(
      /^vigil: the server's engine died in phase "loading weights" \(shard 0\/4\) after .*, though its process still runs\.$/m,
    );
    expect(result.code).toBe(1);
  });

  it('a server killed by SIGKILL gets its likely killer from the kernel log', async () => {
    const dir = tempDir();
    const { server } = killed(dir);
    const result = await vigil(run(server), { PATH: fakeKernelLog(dir) });
    const pid = readFileSync(join(dir, 'pid'), 'utf8');
    expect(result.code).toBe(137);
    expect(result.stdout).toMatch(
      /^vigil: the server failed to start: it was killed by SIGKILL \(most likely the kernel's OOM killer: the host ran out of memory\) after .*, in phase "loading weights"/m,
    );
    expect(result.stdout).toContain(`vigil: kernel: Out of memory: Killed process ${pid} (python3)`);
    expect(result.stdout).toContain('The log holds no error line');
    expect(result.stdout).not.toContain('✔');
  });

  it('a SIGKILL no log explains says so, and what was looked at', async () => {
    const dir = tempDir();
    const { server } = killed(dir);
    const result = await vigil(run(server), { PATH: fakeKernelLog(dir, 1) });
    const pid = readFileSync(join(dir, 'pid'), 'utf8');
    expect(result.stdout).toContain(
      `it was killed by SIGKILL from outside vigil (the kernel log holds no OOM kill of PID ${pid})`,
    );
  });
});

describe('vigil watch --docker with the same four servers', () => {
  it('a stall: the warning, then the failure at --stall-timeout', async () => {
    const dir = tempDir();
    const path = fakeDocker(dir, stalls(dir).server);
    const result = await vigil(['watch', '--docker', 'llm', '--stall-after', '1s', '--stall-timeout', '3s'], {
      PATH: path,
    });
    expect(result.stderr).toMatch(
      /^vigil: warning: llm stalled in phase "loading weights": nothing advanced it for 1\.\ds .*its last line: Loading safetensors/m,
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^vigil: llm stalled in phase "loading weights".*\(--stall-timeout\)\.$/m);
  });

  it('a download in silence is loading, then ready', async () => {
    const dir = tempDir();
    const { server, env } = downloads(dir);
    const path = fakeDocker(dir, [...server.slice(0, -2), '--delay', '20']);
    const result = await vigil(['watch', '--docker', 'llm', '--model', MODEL, '--stall-after', '1500ms'], {
      PATH: path,
      ...env,
    });
    expect(result.stderr).not.toContain('stalled');
    expect(result.stderr).toMatch(/^vigil: llm is ready after \d/m);
    expect(result.code).toBe(0);
  });

  it('an engine that dies while its process serves fails within 5 s, with the diagnosis', async () => {
    const dir = tempDir();
    const path = fakeDocker(dir, dyingWhileLoading(dir).server);
    const result = await vigil(['watch', '--docker', 'llm'], { PATH: path });
    const latencyMs = (result.reportedAt ?? 0) - Number(readFileSync(join(dir, 'dead-at'), 'utf8'));
    console.log(`watch: dead engine reported ${latencyMs} ms after its death line`);
    expect(latencyMs).toBeLessThan(5000);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^vigil: llm's engine died in phase "loading weights" \(shard 0\/4\) after .*, though its process still runs\.$/m,
    );
    expect(result.stdout).toContain('torch.OutOfMemoryError');
  });

  it('a container killed at its memory limit names the killer', async () => {
    const dir = tempDir();
    const path = fakeDocker(dir, killed(dir).server, { oomKilled: true });
    const result = await vigil(['watch', '--docker', 'llm'], { PATH: path });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^vigil: llm failed to start: it exited with status 137 \(killed, most likely the container's memory limit/m,
    );
    expect(result.stdout).toContain('The log holds no error line');
    expect(existsSync(join(dir, 'pid'))).toBe(true);
  });
});
