import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTimelineBuilder, type StartTimeline } from './build-timeline.js';

function build(lines: readonly string[]): StartTimeline {
  const builder = createTimelineBuilder();
  for (const line of lines) builder.push(line);
  return builder.finish();
}

const INCIDENT = readFileSync('examples/vllm-kimi-k25-flashinfer-mismatch.journal.log', 'utf8').split('\n');

describe('createTimelineBuilder', () => {
  it('finds both starts of the bundled incident, their phases and the eight workers failing', () => {
    const timeline = build(INCIDENT);
    expect(timeline.engine).toBe('vllm');
    expect(timeline.attempts).toHaveLength(2);
    for (const attempt of timeline.attempts) {
      expect(attempt.failed).toBe(true);
      expect(attempt.ready).toBeNull();
      expect(attempt.phases.map((p) => p.id)).toEqual(['arguments', 'model-config', 'loading-weights']);
      const workers = attempt.failures.filter((f) => f.process.startsWith('Worker_TP')).map((f) => f.process);
      expect(workers.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `Worker_TP${i}`));
    }
    const [first, second] = timeline.attempts;
    expect(first?.start).toMatchObject({ line: 1, time: { clock: '23:31:07' } });
    expect(second?.start).toMatchObject({ line: 777, time: { clock: '23:31:56' } });
    expect(first?.end.line).toBe(776);
  });

  it('keeps one start when the server logs its banner after the service manager said Starting', () => {
    const timeline = build([
      'Feb 20 10:00:00 h systemd[1]: Starting vllm.service - vLLM...',
      'Feb 20 10:00:05 h vllm[9]: INFO 02-20 10:00:05 [api_server.py:1] vLLM API server version 0.9.0',
      'Feb 20 10:01:00 h vllm[9]: INFO 02-20 10:01:00 [launcher.py:1] Application startup complete.',
    ]);
    expect(timeline.attempts).toHaveLength(1);
    expect(timeline.attempts[0]?.ready).toMatchObject({ line: 3, time: { clock: '10:01:00' } });
    expect(timeline.attempts[0]?.failed).toBe(false);
  });

  it('counts lines when the log carries no times', () => {
    const timeline = build([
      'main: build = 1 (abc)',
      'llama_model_load: error loading model',
      'main: build = 1 (abc)',
    ]);
    expect(timeline.attempts).toHaveLength(2);
    expect(timeline.attempts[0]?.start.time).toBeNull();
  });

  it('names a process once, at its first error', () => {
    const timeline = build([
      'vLLM API server version 0.9.0',
      '(Worker_TP0 pid=1) ERROR 01-01 00:00:01 [x.py:1] first',
      '(Worker_TP0 pid=1) ERROR 01-01 00:00:02 [x.py:1] second',
    ]);
    expect(timeline.attempts[0]?.failures.map((f) => [f.process, f.at.line])).toEqual([['Worker_TP0', 2]]);
  });

  it('keeps memory bounded: the last starts only, and says how many it left out', () => {
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) lines.push('main: build = 1 (abc)', 'error: failed to load model');
    const timeline = build(lines);
    expect(timeline.attempts.length).toBeLessThanOrEqual(12);
    expect(timeline.attempts.length + timeline.attemptsDropped).toBe(40);
    expect(timeline.attempts.at(-1)?.index).toBe(39);
  });
});
