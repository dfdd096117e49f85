import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JOURNAL_REMOTE, entriesFromShortLog, writeJournalFile } from '../sources/helpers/write-journal.js';
import { logFixture, replay, tempDir, vigil } from './helpers/supervise-fixture.js';

describe('vigil run', () => {
  it('prints the diagnosis the moment the server dies, and exits with its status', async () => {
    const run = await vigil([
      'run',
      '--no-preflight',
      '--',
      ...replay('vllm-load-weights-keyerror', '--delay', '3', '--exit', '1'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^vigil: the server failed to start: it exited with status 1 after .*, in phase "loading weights" \(shard 7\/15\)\.$/m,
    );
    expect(run.stdout).toContain("KeyError: 'layers.1.mlp.experts.w13_weight'");
    expect(run.stdout).toContain('VllmWorker rank=0');
    expect(run.stderr).toMatch(/^vigil: loading weights · /m);
    expect(run.stdout).toContain('EngineCore failed to start.');
  });

  it('writes the failed start as an incident page with --report, its phases on the timeline', async () => {
    const report = join(tempDir(), 'incident.html');
    const run = await vigil([
      'run',
      '--no-preflight',
      '--quiet',
      '--report',
      report,
      '--',
      ...replay('vllm-load-weights-keyerror', '--delay', '3', '--exit', '1'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`vigil: wrote the incident page to ${report}`);
    const page = readFileSync(report, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('KeyError: &#39;layers.1.mlp.experts.w13_weight&#39;');
    expect(page).toContain('it exited with status 1');
    expect(page.match(/<div class="attempt">/g)).toHaveLength(1);
    expect(page).toContain('loading weights at ');
  });

  it('remembers the phase times of a successful start and shows an ETA the next time', async () => {
    const env = { XDG_STATE_HOME: tempDir() };
    const argv = ['run', '--no-preflight', '--quiet', '--', ...replay('vllm-healthy-start', '--delay', '5')];
    const first = await vigil(argv, env);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^vigil: ready after \d/m);
    expect(first.stderr).not.toContain('ETA');
    expect(existsSync(join(env.XDG_STATE_HOME, 'vigil', 'history.json'))).toBe(true);
    const second = await vigil(argv, env);
    expect(second.stderr).toMatch(/^vigil: loading weights · .*ETA /m);
  });

  it('hides the server’s output with --quiet and keeps it with --log', async () => {
    const log = join(tempDir(), 'server.log');
    const run = await vigil([
      'run',
      '--no-preflight',
      '--quiet',
      '--log',
      log,
      '--',
      ...replay('vllm-healthy-start'),
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('');
    expect(readFileSync(log, 'utf8')).toContain('INFO:     Application startup complete.');
  });

  it('writes the crash report as JSON with what the supervisor saw', async () => {
    const run = await vigil([
      'run',
      '--no-preflight',
      '--quiet',
      '--format',
      'json',
      '--',
      ...replay('vllm-kv-cache-no-blocks', '--exit', '1'),
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      schemaVersion: 1,
      verdict: 'failure',
      rootCause: { exception: 'ValueError' },
      supervision: {
        reason: 'exit',
        exit: { code: 1, signal: null },
        ready: false,
        phase: { id: 'memory-profiling' },
        engine: 'vllm',
      },
    });
  });

  it('fails a start that is not ready within --timeout and names the phase', async () => {
    const run = await vigil([
      'run',
      '--no-preflight',
      '--quiet',
      '--timeout',
      '700ms',
      '--',
      ...replay('vllm-healthy-start', '--delay', '200'),
    ]);
    expect(run.code).toBe(124);
    expect(run.stdout).toMatch(/^vigil: the server was not ready after .*: it stalled in phase "/m);
  });

  it('refuses to start when the pre-flight check finds an error, unless forced', async () => {
    const site = join(tempDir(), 'site-packages');
    for (const [name, version] of [
      ['flashinfer_python', '0.6.4'],
      ['flashinfer_cubin', '0.6.3'],
    ] as const) {
      mkdirSync(join(site, `${name}-${version}.dist-info`), { recursive: true });
      writeFileSync(
        join(site, `${name}-${version}.dist-info`, 'METADATA'),
        `Metadata-Version: 2.1\nName: ${name.replace('_', '-')}\nVersion: ${version}\n`,
      );
    }
    const stamp = join(tempDir(), 'started');
    const server = replay('vllm-healthy-start', '--exit-stamp', stamp);
    const refused = await vigil(['run', '--site-packages', site, '--quiet', '--', ...server]);
    // EX_CONFIG: systemd's RestartPreventExitStatus=78 keeps it from restarting into the same error.
    expect(refused.code).toBe(78);
    expect(refused.stderr).toContain('flashinfer-cubin');
    expect(refused.stderr).toMatch(/^vigil: not starting: the pre-flight check found \d+ error/m);
    expect(existsSync(stamp)).toBe(false);
    const forced = await vigil(['run', '--site-packages', site, '--force', '--quiet', '--', ...server]);
    expect(forced.code).toBe(0);
    expect(existsSync(stamp)).toBe(true);
  });

  it('shows the last lines when the server dies without a diagnosable cause', async () => {
    const run = await vigil([
      'run',
      '--no-preflight',
      '--quiet',
      '--',
      ...replay('vllm-healthy-start', '--exit', '3'),
    ]);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(
      /^vigil: the server crashed after it was ready: it exited with status 3 after /m,
    );
    expect(run.stdout).toContain('The last lines the server printed:\n');
    expect(run.stdout).toContain('  INFO:     127.0.0.1:51234 - "GET /health HTTP/1.1" 200 OK');
  });

  it('is a usage error to give a bad duration or URL', async () => {
    expect((await vigil(['run', '--no-preflight', '--timeout', 'soon', '--', 'true'])).code).toBe(2);
    expect((await vigil(['run', '--no-preflight', '--health', 'ftp://x', '--', 'true'])).code).toBe(2);
  });

  it('forwards a real SIGINT from the terminal to the server and exits with its status', async () => {
    const bin = fileURLToPath(new URL('../../src/cli/bin.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        bin,
        'run',
        '--no-preflight',
        '--',
        ...replay('vllm-healthy-start', '--hang', '--on-signal', '0'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('vigil: ready after')) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(stdout).toContain('Shutting down (received SIGINT)');
    expect(code).toBe(0);
  });
});

describe('vigil unit', () => {
  it('prints a unit with an absolute ExecStart found on PATH', async () => {
    const run = await vigil(['unit', '--name', 'vllm-qwen', '--', 'node', 'server.js', '--port', '8000']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ExecStart=\/\S+\/node server\.js --port 8000$/m);
    expect(run.stdout).toContain('EnvironmentFile=-/etc/vigil/vllm-qwen.env');
    expect(run.stdout).toMatch(
      /^ExecStartPre=\S+ -- \S+ check --gpu --wait-gpu-free 300 --skip-python -- \/\S+\/node server\.js --port 8000$/m,
    );
  });

  it("checks the virtual environment the server runs from, not PATH's python3", async () => {
    const venv = join(tempDir(), 'venv');
    mkdirSync(join(venv, 'bin'), { recursive: true });
    writeFileSync(join(venv, 'pyvenv.cfg'), 'home = /usr/bin\n');
    for (const name of ['vllm', 'python']) {
      writeFileSync(join(venv, 'bin', name), '#!/bin/sh\n');
      chmodSync(join(venv, 'bin', name), 0o755);
    }
    const run = await vigil([
      'unit',
      '--name',
      'vllm-qwen',
      '--',
      join(venv, 'bin', 'vllm'),
      'serve',
      'Qwen/Qwen3-8B',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `check --gpu --wait-gpu-free 300 --python ${join(venv, 'bin', 'python')} -- ${join(venv, 'bin', 'vllm')} serve Qwen/Qwen3-8B\n`,
    );
  });

  it('refuses an invalid unit name', async () => {
    const run = await vigil(['unit', '--name', 'bad name', '--', 'node']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^vigil: invalid unit name "bad name"/);
  });
});

describe('vigil watch', () => {
  it.skipIf(JOURNAL_REMOTE === undefined)(
    'reports the incident’s failed start from a journal file',
    async () => {
      const file = join(tempDir(), 'incident.journal');
      const incident = readFileSync(
        new URL('../../examples/vllm-kimi-k25-flashinfer-mismatch.journal.log', import.meta.url),
        'utf8',
      );
      await writeJournalFile(entriesFromShortLog(incident, { unit: 'vllm-kimi-k25.service' }), file);
      const run = await vigil([
        'watch',
        '--unit',
        'vllm-kimi-k25',
        '--journal-file',
        file,
        '--no-follow',
        '--format',
        'markdown',
      ]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^> \*\*vigil:\*\* vllm-kimi-k25 failed to start: it exited with status 1/m);
      expect(run.stdout).toContain('> restart loop: 2 failed starts in a row');
      expect(run.stdout).toContain('flashinfer-cubin');
    },
  );

  it('needs exactly one thing to watch', async () => {
    expect((await vigil(['watch'])).code).toBe(2);
    expect((await vigil(['watch', '--unit', 'a', '--docker', 'b'])).code).toBe(2);
    expect((await vigil(['watch', '--unit', 'a b'])).code).toBe(2);
  });

  it('diagnoses a docker container in a restart loop from its last run', async () => {
    const bin = fakeTools({
      docker: `if [ "$1" = inspect ]; then echo '[{"State":{"Status":"restarting","Running":true,"Restarting":true,"ExitCode":1,"StartedAt":"2025-05-01T10:00:00Z"},"RestartCount":2}]'; else cat ${logFixture('vllm-load-weights-keyerror')}; fi`,
    });
    const run = await vigil(['watch', '--docker', 'vllm'], { PATH: `${bin}:${process.env.PATH ?? ''}` });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^vigil: vllm failed to start: it exited with status 1/m);
    expect(run.stdout).toContain('vigil: restart loop: 3 failed starts in a row');
    expect(run.stdout).toContain('KeyError');
    const report = join(tempDir(), 'watch.html');
    const again = await vigil(['watch', '--docker', 'vllm', '--report', report], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    });
    expect(again.code).toBe(1);
    const page = readFileSync(report, 'utf8');
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('KeyError');
    expect(page).toContain('<div class="attempt">');
  });

  it('diagnoses a pod in CrashLoopBackOff from the previous container’s logs', async () => {
    const bin = fakeTools({
      kubectl: `if [ "$1" = get ]; then echo '{"status":{"containerStatuses":[{"name":"vllm","restartCount":4,"state":{"waiting":{"reason":"CrashLoopBackOff"}},"lastState":{"terminated":{"exitCode":1,"reason":"Error"}}}]}}'; else case "$*" in *--previous*) cat ${logFixture('vllm-kv-cache-no-blocks')};; *) echo current;; esac; fi`,
    });
    const run = await vigil(['watch', '--kube', 'vllm-0', '-n', 'llm'], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('No available memory for the cache blocks');
    expect(run.stdout).toContain('restart loop: 5 failed starts');
  });

  it('names the probe that made the kubelet kill the container, from the pod’s events', async () => {
    const bin = fakeTools({
      kubectl: `case "$2" in
  pod) echo '{"status":{"containerStatuses":[{"name":"vllm","restartCount":1,"state":{"waiting":{"reason":"CrashLoopBackOff"}},"lastState":{"terminated":{"exitCode":137,"reason":"Error"}}}]}}' ;;
  events) echo '{"kind":"List","items":[{"reason":"Scheduled","message":"Successfully assigned llm/vllm-0 to gpu-node-3"},{"reason":"Unhealthy","type":"Warning","count":3,"message":"Startup probe failed: Get \\"http://10.42.0.17:8000/health\\": dial tcp 10.42.0.17:8000: connect: connection refused"},{"reason":"Killing","type":"Normal","message":"Container vllm failed startup probe, will be restarted"}]}' ;;
  *) head -12 ${logFixture('vllm-healthy-start')} ;;
esac`,
    });
    const run = await vigil(['watch', '--kube', 'vllm-0', '-n', 'llm'], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^vigil: vllm-0 failed to start: it exited with status 137 \(killed, most likely the kubelet: the startup probe failed before the load finished/m,
    );
    expect(run.stdout).toContain(
      'vigil: pod event: Startup probe failed: Get "http://10.42.0.17:8000/health"',
    );
    expect(run.stdout).toContain('The log holds no error line');
  });

  it('exits 0 once a running container’s log says ready', async () => {
    const bin = fakeTools({
      docker: `if [ "$1" = inspect ]; then echo '[{"State":{"Running":true,"StartedAt":"2025-05-01T10:00:00Z"},"RestartCount":0}]'; else cat ${logFixture('vllm-healthy-start')}; exec sleep 30; fi`,
    });
    const run = await vigil(['watch', '--docker', 'vllm'], { PATH: `${bin}:${process.env.PATH ?? ''}` });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^vigil: vllm is ready after/m);
  });
});

/** Executable stand-ins for docker and kubectl, first on PATH. */
function fakeTools(scripts: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}
