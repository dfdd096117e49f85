import { describe, expect, it } from 'vitest';
import { ENGINE_PROGRESS, type StartRecord } from '../../progress/index.js';
import { phaseDurations, stallBoundMs } from './stall-bounds.js';

const vllm = ENGINE_PROGRESS.find((spec) => spec.engine === 'vllm') ?? null;
const run = (readyMs: number, phases: [string, number][]): StartRecord => ({
  at: '2026-11-30T10:00:00.000Z',
  engine: 'vllm',
  readyMs,
  phases: phases.map(([id, atMs]) => ({ id, atMs })),
});
const HISTORY = [
  run(600_000, [
    ['arguments', 0],
    ['loading-weights', 20_000],
    ['cuda-graphs', 500_000],
  ]),
  run(700_000, [
    ['arguments', 0],
    ['loading-weights', 30_000],
    ['cuda-graphs', 640_000],
  ]),
];

describe('stallBoundMs', () => {
  it('keeps each phase’s duration in an earlier start, the last one until ready', () => {
    expect([...phaseDurations(HISTORY[0] as StartRecord)]).toEqual([
      ['arguments', 20_000],
      ['loading-weights', 480_000],
      ['cuda-graphs', 100_000],
    ]);
  });

  it.each([
    [
      'a phase the history saw: twice its longest, plus a minute',
      'loading-weights',
      HISTORY,
      2 * 610_000 + 60_000,
      'history',
    ],
    ['before the first phase, from the history', null, HISTORY, 60_000, 'history'],
    ['without history: the engine’s own bound', 'loading-weights', [], 30 * 60_000, 'engine'],
    ['without history or an engine bound: the default', 'kv-cache', [], 15 * 60_000, 'default'],
    ['before the first phase without history', null, [], 5 * 60_000, 'default'],
  ] as const)('%s', (_name, phase, history, ms, from) => {
    expect(stallBoundMs(phase, history, vllm)).toEqual({ ms, from });
  });
});
