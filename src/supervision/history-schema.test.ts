import { describe, expect, it } from 'vitest';
import { parseHistory } from './history-schema.js';

const run = {
  at: '2026-11-30T06:00:00.000Z',
  engine: 'vllm',
  readyMs: 600_000,
  phases: [{ id: 'x', atMs: 1 }],
};
const file = (runs: unknown[], extra: Record<string, unknown> = {}) => ({
  version: 1,
  commands: { 'vllm\u0000serve': { lastUsed: run.at, runs, ...extra } },
});

describe('parseHistory', () => {
  it.each([
    ['a file as appendStart writes it', file([run])],
    ['no commands yet', { version: 1, commands: {} }],
    ['an engine not known', file([{ ...run, engine: null }])],
  ])('takes %s', (_, value) => {
    expect(parseHistory(value)).toEqual(value);
  });

  it.each([
    ['not an object', 'history'],
    ['null', null],
    ['another version', { version: 2, commands: {} }],
    ['commands as a list', { version: 1, commands: [] }],
    ['a command without lastUsed', file([run], { lastUsed: 3 })],
    ['runs that are not a list', file([run], { runs: {} })],
    ['a run without its time', file([{ ...run, at: undefined }])],
    ['a negative ready time', file([{ ...run, readyMs: -1 }])],
    ['a phase without its time', file([{ ...run, phases: [{ id: 'x' }] }])],
    ['an engine that is a number', file([{ ...run, engine: 7 }])],
  ])('refuses %s', (_, value) => {
    expect(parseHistory(value)).toBeNull();
  });
});
