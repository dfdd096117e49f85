import { describe, expect, it } from 'vitest';
import { estimateRemainingMs, recordStart, type StartRecord } from './estimate-eta.js';
import { createProgressTracker } from './track-progress.js';

const earlier = (readyMs: number, weightsAt: number): StartRecord => ({
  at: '2025-01-01T00:00:00.000Z',
  engine: 'vllm',
  readyMs,
  phases: [
    { id: 'arguments', atMs: 1_000 },
    { id: 'loading-weights', atMs: weightsAt },
  ],
});

function inPhase(line: string, atMs: number) {
  const tracker = createProgressTracker({ engine: 'vllm' });
  tracker.push(line, atMs);
  return tracker.state();
}

describe('estimateRemainingMs', () => {
  const history = [earlier(531_000, 20_000), earlier(540_000, 30_000), earlier(600_000, 25_000)];

  it('is the median time from this phase to ready, less the time spent in it', () => {
    const state = inPhase('INFO [gpu_model_runner.py:1] Starting to load model m...', 22_000);
    // From loading-weights to ready took 511 s, 510 s and 575 s: median 511 s; 8 s spent already.
    expect(estimateRemainingMs(state, 30_000, history)).toBe(503_000);
  });

  it('falls back to the median time to ready before any known phase', () => {
    const tracker = createProgressTracker({ engine: 'vllm' });
    expect(estimateRemainingMs(tracker.state(), 40_000, history)).toBe(500_000);
  });

  it('never goes below zero, and is null without history or once ready', () => {
    const state = inPhase('INFO [gpu_model_runner.py:1] Starting to load model m...', 0);
    expect(estimateRemainingMs(state, 10_000_000, history)).toBe(0);
    expect(estimateRemainingMs(state, 0, [])).toBeNull();
    const ready = createProgressTracker({ engine: 'vllm' });
    ready.markReady(5);
    expect(estimateRemainingMs(ready.state(), 10, history)).toBeNull();
  });
});

describe('recordStart', () => {
  it('keeps the phase times of a start that became ready, and nothing of one that did not', () => {
    const tracker = createProgressTracker({ engine: 'vllm' });
    tracker.push('INFO [api_server.py:1] vLLM API server version 0.8.5', 1_200.4);
    expect(recordStart(tracker.state(), new Date(0))).toBeNull();
    tracker.push('INFO:     Application startup complete.', 9_000);
    expect(recordStart(tracker.state(), new Date(0))).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      engine: 'vllm',
      readyMs: 9_000,
      phases: [{ id: 'arguments', atMs: 1_200 }],
    });
  });
});
