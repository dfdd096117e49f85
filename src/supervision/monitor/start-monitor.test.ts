import { describe, expect, it } from 'vitest';
import { createDiagnosisSession } from '../../diagnosis/index.js';
import type { StartRecord } from '../../progress/index.js';
import {
  createStartMonitor,
  type MonitorEvent,
  type MonitorOutput,
  type StartMonitorOptions,
  type Verdict,
} from './start-monitor.js';

const V = (text: string): string => `INFO 05-12 09:14:05 [api_server.py:1043] ${text}`;
const E = (text: string): string => `ERROR 05-12 09:16:02 [core.py:387] ${text}`;
const line = (atMs: number, text: string): MonitorEvent => ({ type: 'line', text, atMs });
const tick = (atMs: number): MonitorEvent => ({ type: 'tick', atMs });

const START = [
  line(0, V('vLLM API server version 0.8.5')),
  line(100, V('Starting to load model Qwen/Qwen2.5-7B-Instruct...')),
];
const READY = line(900, 'INFO:     Application startup complete.');
const DEATH = [
  line(2000, E('EngineCore encountered a fatal error.')),
  line(2000, E('Traceback (most recent call last):')),
  line(
    2000,
    E('  File "/usr/lib/python3/dist-packages/vllm/v1/engine/core.py", line 378, in run_engine_core'),
  ),
  line(2000, E('    engine_core.run_busy_loop()')),
  line(2001, E('torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.')),
  line(2002, 'ERROR 05-12 09:16:02 [async_llm.py:399] AsyncLLM output_handler failed.'),
];
const HISTORY: StartRecord[] = [
  {
    at: '2026-11-30T10:00:00.000Z',
    engine: 'vllm',
    readyMs: 1000,
    phases: [
      { id: 'arguments', atMs: 0 },
      { id: 'loading-weights', atMs: 100 },
    ],
  },
];

interface Row {
  name: string;
  options?: Partial<StartMonitorOptions>;
  events: MonitorEvent[];
  verdict: Verdict;
  outputs: MonitorOutput['type'][];
  reason?: string;
}

const ROWS: Row[] = [
  {
    name: 'phases advance: loading, with progress at each',
    events: [...START, tick(5000)],
    verdict: 'loading',
    outputs: ['progress', 'progress'],
  },
  {
    name: 'the ready line: ready',
    events: [...START, READY],
    verdict: 'ready',
    outputs: ['progress', 'progress', 'progress', 'ready'],
  },
  {
    name: 'with probes, the log’s ready line does not count: the first good probe is ready',
    options: { probing: true },
    events: [
      ...START,
      READY,
      { type: 'probe', ok: false, atMs: 950 },
      { type: 'probe', ok: true, atMs: 1200 },
    ],
    verdict: 'ready',
    outputs: ['progress', 'progress', 'ready'],
  },
  {
    name: 'quiet past the phase bound the history allows: stalled, a warning only',
    options: { history: HISTORY },
    // loading-weights took 900 ms before: it may take 2 × 900 + 60 000 ms.
    events: [...START, tick(60_000), tick(62_000)],
    verdict: 'stalled',
    outputs: ['progress', 'progress', 'stalled'],
  },
  {
    name: 'a stalled phase that moves again is loading',
    options: { stallAfterMs: 1000 },
    events: [...START, tick(1500), line(1600, V('Loading weights took 3.27 seconds'))],
    verdict: 'loading',
    outputs: ['progress', 'progress', 'stalled', 'resumed', 'progress'],
  },
  {
    name: 'growing downloads advance a silent phase: no stall',
    options: { stallAfterMs: 1000 },
    events: [
      ...START,
      { type: 'download', bytes: 1 << 20, atMs: 900 },
      { type: 'download', bytes: 2 << 20, atMs: 1800 },
      tick(2500),
    ],
    verdict: 'loading',
    outputs: ['progress', 'progress', 'progress', 'progress'],
  },
  {
    name: 'downloads that stop growing stall like anything else',
    options: { stallAfterMs: 1000 },
    events: [
      ...START,
      { type: 'download', bytes: 1 << 20, atMs: 900 },
      { type: 'download', bytes: 1 << 20, atMs: 1800 },
      tick(2000),
    ],
    verdict: 'stalled',
    outputs: ['progress', 'progress', 'progress', 'stalled'],
  },
  {
    name: '--stall-timeout makes a stall a failure',
    options: { stallAfterMs: 1000, stallTimeoutMs: 3000 },
    events: [...START, tick(1500), tick(3200)],
    verdict: 'failed',
    outputs: ['progress', 'progress', 'stalled', 'failed'],
    reason: 'stall',
  },
  {
    name: 'the engine dies while the process lives: failed once the traceback is in',
    events: [...START, READY, ...DEATH, tick(2500), tick(3100)],
    verdict: 'failed',
    outputs: ['progress', 'progress', 'progress', 'ready', 'failed'],
    reason: 'dead',
  },
  {
    name: 'a fatal error before ready and no exit: hung after the grace',
    options: { fatalGraceMs: 1000 },
    events: [...START, ...DEATH.slice(1), line(2100, V('Waiting for the workers')), tick(2300), tick(3400)],
    verdict: 'failed',
    outputs: ['progress', 'progress', 'failed'],
    reason: 'hang',
  },
  {
    name: 'not ready within the timeout: failed',
    options: { timeoutMs: 5000 },
    events: [...START, tick(4000), tick(5001)],
    verdict: 'failed',
    outputs: ['progress', 'progress', 'failed'],
    reason: 'timeout',
  },
  {
    name: 'an exit with a status: failed with the exit',
    events: [...START, { type: 'exit', atMs: 800, exit: { code: 1, signal: null } }],
    verdict: 'failed',
    outputs: ['progress', 'progress', 'failed'],
    reason: 'exit',
  },
  {
    name: 'an exit asked for: exited, no failure',
    events: [
      ...START,
      READY,
      { type: 'exit', atMs: 5000, exit: { code: null, signal: 'SIGTERM' }, requested: true },
    ],
    verdict: 'exited',
    outputs: ['progress', 'progress', 'progress', 'ready', 'exited'],
  },
  {
    name: 'a clean exit 0 with nothing wrong in the log: exited',
    events: [...START, { type: 'exit', atMs: 800, exit: { code: 0, signal: null } }],
    verdict: 'exited',
    outputs: ['progress', 'progress', 'exited'],
  },
  {
    name: 'the runtime calls an end failed whatever the status',
    events: [
      ...START,
      { type: 'exit', atMs: 800, exit: null, endedBy: 'ended: exited 0 (Error)', failed: true },
    ],
    verdict: 'failed',
    outputs: ['progress', 'progress', 'failed'],
    reason: 'exit',
  },
];

function play(row: Row): {
  verdict: Verdict;
  outputs: MonitorOutput[];
  monitor: ReturnType<typeof createStartMonitor>;
} {
  const monitor = createStartMonitor({
    session: createDiagnosisSession(),
    engine: 'vllm',
    startedAt: new Date('2026-12-01T10:00:00Z'),
    ...row.options,
  });
  const outputs = row.events.flatMap((event) => monitor.push(event));
  return { verdict: monitor.state().verdict, outputs, monitor };
}

describe('createStartMonitor: transitions from tables of events', () => {
  it.each(ROWS)('$name', (row) => {
    const { verdict, outputs, monitor } = play(row);
    expect(verdict).toBe(row.verdict);
    expect(outputs.map((output) => output.type)).toEqual(row.outputs);
    if (row.reason !== undefined) expect(monitor.state().failure?.reason).toBe(row.reason);
  });

  it('a dead engine carries the diagnosis and the line that said so, within the death grace', () => {
    const row = ROWS.find((candidate) => candidate.reason === 'dead');
    if (row === undefined) throw new Error('no dead row');
    const monitor = createStartMonitor({ session: createDiagnosisSession(), engine: 'vllm' });
    const decidedAt: number[] = [];
    for (const event of row.events) {
      if (monitor.push(event).some((output) => output.type === 'failed')) decidedAt.push(event.atMs);
    }
    expect(decidedAt).toEqual([3100]);
    // Reported before the exit (the server left running): the lines so far, read as diagnose reads them.
    const failure = monitor.conclude();
    expect(failure?.deathLine).toContain('EngineCore encountered a fatal error.');
    expect(failure?.diagnosis.rootCause?.exception).toBe('torch.OutOfMemoryError');
    expect(failure?.ready).toBe(true);
    expect(failure?.diagnosis.input.lines).toBe(row.events.filter((e) => e.type === 'line').length);
  });

  it('a failure decided on silence and not reported yet is diagnosed again at the exit, over every line', () => {
    const row = ROWS.find((candidate) => candidate.reason === 'dead');
    if (row === undefined) throw new Error('no dead row');
    const session = createDiagnosisSession();
    const monitor = createStartMonitor({ session, engine: 'vllm' });
    for (const event of row.events) monitor.push(event);
    const lines = row.events.filter((e) => e.type === 'line').length;
    // The API process's own traceback comes after the decision, before vigil's SIGTERM ends it.
    monitor.push(line(3200, 'ERROR 05-12 09:16:02 [async_llm.py:399] Traceback (most recent call last):'));
    monitor.push({ type: 'exit', atMs: 3300, exit: { code: null, signal: 'SIGTERM' } });
    const failure = monitor.state().failure;
    expect(failure?.reason).toBe('dead');
    expect(failure?.exit).toEqual({ code: null, signal: 'SIGTERM' });
    expect(failure?.diagnosis.input.lines).toBe(lines + 1);
    expect(failure?.diagnosis.rootCause?.exception).toBe('torch.OutOfMemoryError');
    expect(monitor.state().diagnosis).toBe(failure?.diagnosis);
  });

  it('a stall warning names the phase, the last line and how long', () => {
    const { outputs } = play({
      name: '',
      options: { history: HISTORY },
      events: [...START, tick(61_900)],
      verdict: 'stalled',
      outputs: [],
    });
    const stalled = outputs.find((output) => output.type === 'stalled');
    expect(stalled).toMatchObject({
      stall: {
        phase: { id: 'loading-weights' },
        lastLine: V('Starting to load model Qwen/Qwen2.5-7B-Instruct...'),
        quietMs: 61_800,
        boundMs: 61_800,
        boundFrom: 'history',
      },
    });
  });

  it('the state says the ETA from history and asks for probes only while they matter', () => {
    const monitor = createStartMonitor({
      session: createDiagnosisSession(),
      engine: 'vllm',
      probing: true,
      history: HISTORY,
    });
    for (const event of START) monitor.push(event);
    monitor.push(tick(300));
    expect(monitor.state()).toMatchObject({ verdict: 'loading', etaMs: 700, wantsProbe: true });
    monitor.push({ type: 'probe', ok: true, atMs: 400 });
    expect(monitor.state()).toMatchObject({ verdict: 'ready', etaMs: null, wantsProbe: false });
  });

  it('counts downloaded bytes as a fact of the progress', () => {
    const monitor = createStartMonitor({ session: createDiagnosisSession(), engine: 'vllm' });
    monitor.push(START[0] as MonitorEvent);
    monitor.push({ type: 'download', bytes: 3 << 20, atMs: 500 });
    expect(monitor.state().progress.facts.downloadedBytes).toBe(3 << 20);
  });
});
