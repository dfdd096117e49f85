import { describe, expect, it } from 'vitest';
import {
  ContainerRuns,
  formatTimeNs,
  parseTimeNs,
  splitTimestamp,
  type ContainerRun,
  type RunSighting,
} from './container-runs.js';

const at = (time: string): bigint => parseTimeNs(`2026-12-04T01:18:${time}Z`) as bigint;
const running = (startedAt: string, finishedAt: string | null, restarts: number): RunSighting => ({
  startedAt: `2026-12-04T01:18:${startedAt}Z`,
  finishedAt: finishedAt === null ? '0001-01-01T00:00:00Z' : `2026-12-04T01:18:${finishedAt}Z`,
  running: true,
  restarts,
  ended: null,
});
const keyAt = (runs: ContainerRuns, time: string): string => {
  const run = runs.runAt(at(time), null);
  return run === 'unknown' ? run : run.key;
};

describe('container runs', () => {
  it.each([
    ['2026-12-04T01:18:45.274977812Z', 1796347125274977812n],
    ['2026-12-04T02:18:45.5+01:00', 1796347125500000000n],
    ['2026-12-04 01:18:45.274977812 +0000 UTC', null],
    ['0001-01-01T00:00:00Z', -62135596800000000000n],
  ])('reads %s', (text, ns) => {
    expect(parseTimeNs(text)).toBe(ns);
  });

  it('writes the time back for --since with nine digits', () => {
    expect(formatTimeNs(1796347125000000001n)).toBe('2026-12-04T01:18:45.000000001Z');
    expect(splitTimestamp('2026-12-04T01:18:45.274977812Z run 1 begins')).toEqual({
      ns: 1796347125274977812n,
      text: 'run 1 begins',
      coarse: false,
    });
    expect(splitTimestamp('run 1 begins')).toBeNull();
    expect(splitTimestamp('2026-12-04T01:18:45Z run 1 begins')?.ns).toBe(1796347125999999999n);
  });

  // As podman stamped them: run 2's first line 11 ms before its StartedAt, run 1's last burst after its
  // FinishedAt. Each line goes to its own run, split halfway between one's end and the next's start.
  it('gives each line its run, across blurred ends', () => {
    const runs = new ContainerRuns((startedAt) => `podman:${startedAt}`);
    runs.learn(running('45.224259413', null, 0));
    runs.learn(running('48.173175657', '46.301575630', 1));
    expect(keyAt(runs, '46.301640000')).toBe('podman:2026-12-04T01:18:45.224259413Z');
    expect(keyAt(runs, '48.161980545')).toBe('podman:2026-12-04T01:18:48.173175657Z');
    expect(keyAt(runs, '59.000000000')).toBe('podman:2026-12-04T01:18:48.173175657Z');
  });

  // Run 2 came and went between two looks: the first look saw run 1, the second run 3 (after run 2's
  // end). Run 2's lines are an unseen run's, not run 1's or run 3's.
  it('keeps a run no inspect saw apart', () => {
    const runs = new ContainerRuns((startedAt) => `podman:${startedAt}`);
    runs.learn({
      ...running('40.000000000', null, 0),
      running: false,
      finishedAt: '2026-12-04T01:18:41.000000000Z',
    });
    runs.learn(running('46.000000000', '44.000000000', 2));
    expect(keyAt(runs, '41.500000000')).toBe('podman:2026-12-04T01:18:40.000000000Z');
    expect(keyAt(runs, '43.000000000')).toBe('podman:ended 2026-12-04T01:18:44.999999999Z');
    expect(keyAt(runs, '45.500000000')).toBe('podman:2026-12-04T01:18:46.000000000Z');
  });

  it('says unknown for a line past the end of the last run known', () => {
    const runs = new ContainerRuns((startedAt) => `podman:${startedAt}`);
    runs.learn({
      ...running('40.000000000', null, 0),
      running: false,
      finishedAt: '2026-12-04T01:18:41.000000000Z',
    });
    expect(keyAt(runs, '43.000000000')).toBe('unknown');
  });

  // The docker CLI through podman's Docker API stamps whole seconds: run 2 ended at 42.900 and run 3's
  // StartedAt came late (44.500, podman under load), so run 3's first line, 42.999999999, is run 2's by
  // time. What the line says places it in run 3; from there on run 3's lines are its own.
  it('gives a run the lines from its first on, where its start was placed by what it said', () => {
    const runs = new ContainerRuns((startedAt) => `docker:${startedAt}`);
    runs.learn({
      ...running('40.000000000', null, 1),
      running: false,
      finishedAt: '2026-12-04T01:18:42.900Z',
    });
    runs.learn(running('44.500000000', '42.900000000', 2));
    const run2 = runs.runAt(at('42.999999999'), null) as ContainerRun;
    expect(run2.key).toBe('docker:2026-12-04T01:18:40.000000000Z');
    const run3 = runs.after(run2) as ContainerRun;
    expect(runs.runAt(at('43.300000000'), run3)).not.toBe(run3);
    runs.claim(run3, at('42.999999999'));
    expect(runs.runAt(at('42.999999999'), run3)).toBe(run3);
    expect(runs.runAt(at('43.300000000'), run3)).toBe(run3);
  });

  // Run 2 was never seen and its lines went to run 3 (seen, begun within the same second): at run 3's own
  // first line the lines before become the unseen run 2, and run 3 goes on under a name of its own, still
  // found by the next inspect of it.
  it('splits a seen run whose first lines were the run before it', () => {
    const runs = new ContainerRuns((startedAt) => `docker:${startedAt}`);
    const seen = runs.learn(running('42.787000000', '42.177000000', 2)) as ContainerRun;
    const later = runs.splitSeen(seen, at('42.999999999'), true);
    expect(seen).toMatchObject({ unseen: true, ended: { failed: true }, endNs: at('42.999999998') });
    expect(later.key).toBe('docker:2026-12-04T01:18:42.787000000Z+2026-12-04T01:18:42.999999999Z');
    expect(runs.runAt(at('42.999999999'), later)).toBe(later);
    expect(runs.learn(running('42.787000000', '42.177000000', 2))).toBe(later);
  });
});
