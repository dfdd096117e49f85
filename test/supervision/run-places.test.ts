import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createDiagnosisSession } from '../../src/diagnosis/index.js';
import { superviseServer, type SupervisionEvent } from '../../src/supervision/supervise-server.js';
import { REPLAY, logFixture, replay, tempDir, vigil } from './helpers/supervise-fixture.js';

// `vigil run` where servers run: the termination message, the node_exporter textfile, user rules, probes
// that mean ready, --keep-running, and the GPU memory an earlier start left behind. Real processes; a
// stand-in nvidia-smi (no GPU here) that answers in nvidia-smi's CSV.

const FAKE = fileURLToPath(new URL('fixtures/fake-server.mjs', import.meta.url));

function metricsOf(
  file: string,
): Record<string, { type: string; metrics: { value: string; labels?: Record<string, string> }[] }> {
  return Object.fromEntries(
    parsePrometheusTextFormat(readFileSync(file, 'utf8')).map((family) => [family.name, family]),
  );
}

describe('vigil run --termination-log and --metrics-file', () => {
  it('writes the summary on failure and keeps the textfile across starts', async () => {
    const dir = tempDir();
    const env = { XDG_STATE_HOME: join(dir, 'state') };
    const metrics = join(dir, 'vigil.prom');
    const termination = join(dir, 'termination-log');
    const places = ['--metrics-file', metrics, '--termination-log', termination];
    // The same crashing start, run before and after a healthy one.
    const crash = () =>
      vigil(
        [
          'run',
          '--no-preflight',
          '--quiet',
          ...places,
          '--',
          ...replay('vllm-kv-cache-no-blocks', '--exit', '1'),
        ],
        env,
      );
    const crashed = await crash();
    expect(crashed.code).toBe(1);
    const message = readFileSync(termination, 'utf8');
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(4096);
    expect(message).toMatch(
      /^[\w-]+: the server failed to start: it exited with status 1 after .*, in phase "memory profiling"/,
    );
    expect(message).toContain('No available memory for the cache blocks');
    expect(message).toMatch(/\nfix: \S/);
    const signature = message.split(':')[0] ?? '';
    let families = metricsOf(metrics);
    expect(families.vigil_starts_total?.metrics).toEqual([{ value: '1' }]);
    expect(families.vigil_start_failures_total?.metrics).toEqual([{ value: '1', labels: { signature } }]);
    expect(families.vigil_start_phase?.metrics[0]?.labels).toEqual({
      phase: 'memory-profiling',
      verdict: 'failed',
    });
    expect(families.vigil_last_ready_timestamp_seconds).toBeUndefined();

    const before = Date.now() / 1000;
    const healthy = await vigil(
      ['run', '--no-preflight', '--quiet', ...places, '--', ...replay('vllm-healthy-start')],
      env,
    );
    expect(healthy.code).toBe(0);
    families = metricsOf(metrics);
    // Counted per command line: the healthy start is another command, with its own counters.
    expect(families.vigil_starts_total?.metrics).toEqual([{ value: '1' }]);
    expect(families.vigil_start_failures_total?.metrics).toEqual([]);
    expect(families.vigil_start_phase?.metrics[0]?.labels).toEqual({ phase: 'ready', verdict: 'exited' });
    expect(Number(families.vigil_last_ready_timestamp_seconds?.metrics[0]?.value)).toBeGreaterThan(
      before - 1,
    );

    const again = await crash();
    expect(again.code).toBe(1);
    families = metricsOf(metrics);
    expect(families.vigil_starts_total?.metrics).toEqual([{ value: '2' }]);
    expect(families.vigil_start_failures_total?.metrics).toEqual([{ value: '2', labels: { signature } }]);
  });
});

describe('vigil run and watch with user rules', () => {
  it('loads --rules and the config folder as diagnose does', async () => {
    const dir = tempDir();
    const rule = (id: string): string =>
      [
        `id: ${id}`,
        'title: The model has no weights for this layer',
        'category: model-load-weights',
        'engines: [vllm]',
        'keywords: [w13_weight]',
        'match:',
        "  message: 'w13_weight'",
        'explanation: The checkpoint lacks the expert weights.',
        'fix: download the checkpoint again',
        'references: []',
        '',
      ].join('\n');
    mkdirSync(join(dir, 'rules'));
    writeFileSync(join(dir, 'rules', 'mine.yaml'), rule('my-missing-expert'));
    mkdirSync(join(dir, 'config', 'vigil', 'signatures'), { recursive: true });
    writeFileSync(join(dir, 'config', 'vigil', 'signatures', 'ours.yaml'), rule('our-missing-expert'));
    const withFlag = await vigil([
      'run',
      '--no-preflight',
      '--quiet',
      '--rules',
      join(dir, 'rules'),
      '--',
      ...replay('vllm-load-weights-keyerror', '--exit', '1'),
    ]);
    expect(withFlag.stdout).toContain('[model-load-weights, my-missing-expert]');
    const fromConfig = await vigil(
      ['run', '--no-preflight', '--quiet', '--', ...replay('vllm-load-weights-keyerror', '--exit', '1')],
      { XDG_CONFIG_HOME: join(dir, 'config') },
    );
    expect(fromConfig.stdout).toContain('[model-load-weights, our-missing-expert]');
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'docker'),
      `#!/bin/sh\nif [ "$1" = inspect ]; then echo '[{"State":{"Running":false,"ExitCode":1,"StartedAt":"2025-05-01T10:00:00Z"},"RestartCount":0}]'; else cat ${logFixture('vllm-load-weights-keyerror')}; fi\n`,
    );
    chmodSync(join(bin, 'docker'), 0o755);
    const watched = await vigil(['watch', '--docker', 'llm', '--rules', join(dir, 'rules')], {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    });
    expect(watched.code).toBe(1);
    expect(watched.stdout).toContain('[model-load-weights, my-missing-expert]');
  });
});

function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  const server = createServer(handler);
  onTestFinished(() => new Promise<void>((done) => server.close(() => done())));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('probes that mean ready', () => {
  it('asks the model list too: /health alone answers before the model can serve', async () => {
    const asked: string[] = [];
    let models = 0;
    const server = await listen((req, res) => {
      asked.push(req.url ?? '');
      if (req.url === '/v1/models') models += 1;
      res.statusCode = req.url === '/v1/models' && models < 3 ? 503 : 200;
      res.end();
    });
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/health`);
    const events: SupervisionEvent[] = [];
    const handle = await superviseServer({
      command: process.execPath,
      args: [REPLAY, logFixture('vllm-healthy-start'), '--hang', '--on-signal', '0'],
      engine: 'vllm',
      healthUrl: url,
      healthIntervalMs: 100,
      stdout: null,
      stderr: null,
      createDiagnosisSession: () => createDiagnosisSession(),
      onEvent: (event) => events.push(event),
    });
    onTestFinished(() => handle.forward('SIGKILL'));
    const deadline = Date.now() + 10_000;
    while (!events.some((event) => event.type === 'ready') && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 20));
    }
    expect(events.find((event) => event.type === 'ready')).toMatchObject({ via: 'health' });
    expect(models).toBe(3);
    expect(asked.filter((path) => path === '/health').length).toBeGreaterThanOrEqual(3);
    handle.forward('SIGTERM');
    await handle.done;
  });
});

describe('vigil run --keep-running', () => {
  it('reports a dead engine and leaves the server running', async () => {
    const dir = tempDir();
    const events: SupervisionEvent[] = [];
    const handle = await superviseServer({
      command: process.execPath,
      args: [
        FAKE,
        'engine-dies',
        logFixture('vllm-healthy-start'),
        '--dead',
        logFixture('vllm-engine-dead-while-serving'),
        '--after',
        '200',
        '--stamp',
        join(dir, 'dead-at'),
      ],
      keepRunning: true,
      stdout: null,
      stderr: null,
      createDiagnosisSession: () => createDiagnosisSession(),
      onEvent: (event) => events.push(event),
    });
    onTestFinished(() => handle.forward('SIGKILL'));
    const deadline = Date.now() + 15_000;
    while (!events.some((event) => event.type === 'failure') && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 50));
    }
    expect(events.find((event) => event.type === 'failure')).toMatchObject({
      failure: { reason: 'dead', exit: null },
    });
    await new Promise((done) => setTimeout(done, 1500));
    expect(() => process.kill(handle.pid, 0)).not.toThrow();
    handle.forward('SIGKILL');
    expect((await handle.done).outcome).toBe('dead');
  });
});

describe('GPU memory an earlier start left behind', () => {
  it('names the processes whose parent is gone, with PIDs and memory, before the start', async () => {
    const dir = tempDir();
    // A real orphan: its shell exits at once, so PID 1 adopts it.
    const orphanPid = await new Promise<number>((resolve) => {
      const shell = spawn('/bin/sh', ['-c', 'sleep 30 >/dev/null 2>&1 & echo $!'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      shell.stdout.on('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    });
    onTestFinished(() => {
      try {
        process.kill(orphanPid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    });
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // nvidia-smi's CSV (noheader, nounits): one H100 with 30 GiB held, by the orphan and by this test.
    writeFileSync(
      join(bin, 'nvidia-smi'),
      `#!/bin/sh\ncase "$*" in\n  *query-compute-apps*) echo "${orphanPid}, python3, 30720"; echo "${process.pid}, node, 512" ;;\n  *query-gpu*) echo "NVIDIA H100 80GB HBM3, 9.0, 550.54.15, 31232, 81559" ;;\n  *) exit 0 ;;\nesac\n`,
    );
    chmodSync(join(bin, 'nvidia-smi'), 0o755);
    const site = join(dir, 'site-packages');
    mkdirSync(site);
    const run = await vigil(
      ['run', '--site-packages', site, '--force', '--quiet', '--', ...replay('vllm-healthy-start')],
      { PATH: `${bin}:${process.env.PATH ?? ''}` },
    );
    expect(run.stderr).toContain(
      `vigil: GPU memory is held by 1 process(es) left from an earlier start (their parent is gone): PID ${orphanPid} python3 (30.00 GiB).`,
    );
    expect(run.stderr).toContain(`kill ${orphanPid}`);
    expect(run.stderr).not.toContain(`PID ${process.pid} `);
  });
});

describe('vigil unit and probe-config from the measured starts', () => {
  it('size the unit’s timeouts and the startup probe above the slowest start', async () => {
    const dir = tempDir();
    const env = { XDG_STATE_HOME: join(dir, 'state') };
    const key = ['/bin/true', '--model', 'x'].join('\u0000');
    mkdirSync(join(dir, 'state', 'vigil'), { recursive: true });
    writeFileSync(
      join(dir, 'state', 'vigil', 'history.json'),
      JSON.stringify({
        version: 1,
        commands: {
          [key]: {
            lastUsed: '2026-11-30T10:00:00Z',
            runs: [300_000, 840_000].map((readyMs) => ({
              at: '2026-11-30T10:00:00Z',
              engine: 'vllm',
              readyMs,
              phases: [],
            })),
          },
        },
      }),
    );
    const unit = await vigil(['unit', '--name', 'llm', '--', '/bin/true', '--model', 'x'], env);
    expect(unit.code).toBe(0);
    expect(unit.stdout).toContain('(14m00s expected)');
    const probes = await vigil(['probe-config', '--kube', '--', '/bin/true', '--model', 'x'], env);
    expect(probes.code).toBe(0);
    expect(probes.stdout).toContain('from 2 measured start(s), the slowest 14m00s');
    expect(probes.stdout).toMatch(/startupProbe:\n[^]*?failureThreshold: 126\n/);
    expect((await vigil(['probe-config', '--', '/bin/true'], env)).code).toBe(2);
  });
});
