import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../diagnosis/index.js';
import {
  INCIDENT_LIMITS,
  applyWatcherEvent,
  emptyIncidentState,
  markDelivered,
  undelivered,
  type IncidentState,
  type WatcherEvent,
} from './incidents.js';

const fixture = (name: string): string =>
  readFileSync(new URL(`../../test/supervision/fixtures/logs/${name}`, import.meta.url), 'utf8');
const kvCache = diagnose(fixture('vllm-kv-cache-no-blocks.log'));
const servingOom = diagnose(fixture('vllm-engine-dead-while-serving.log'));

const at = (second: number): Date => new Date(Date.UTC(2026, 2, 3, 10, 0, second));
const failure = (
  startKey: string,
  second: number,
  diagnosis = kvCache,
  target = 'vllm.service',
): WatcherEvent => ({
  type: 'failure',
  target,
  host: 'gpu-1',
  startKey,
  at: at(second),
  diagnosis,
  serving: diagnosis === servingOom,
});
const ready = (startKey: string, second: number, target = 'vllm.service'): WatcherEvent => ({
  type: 'ready',
  target,
  startKey,
  at: at(second),
});

function run(events: WatcherEvent[], state: IncidentState = emptyIncidentState()) {
  const kinds: string[] = [];
  for (const event of events) {
    const result = applyWatcherEvent(state, event);
    state = result.state;
    kinds.push(...result.changes.map((change) => `${change.kind}:${change.incident.signature}`));
  }
  return { state, kinds };
}

describe('applyWatcherEvent', () => {
  it.each([
    {
      scenario: 'a crash loop is one incident with a counter, resolved by the next ready start',
      events: [failure('a', 1), failure('b', 2), failure('c', 3), ready('d', 4)],
      kinds: [
        'opened:vllm-no-kv-cache-blocks',
        'repeated:vllm-no-kv-cache-blocks',
        'repeated:vllm-no-kv-cache-blocks',
        'resolved:vllm-no-kv-cache-blocks',
      ],
      open: 0,
      count: 3,
    },
    {
      scenario: 'another cause on the same target is another incident',
      events: [failure('a', 1), failure('b', 2, servingOom)],
      kinds: ['opened:vllm-no-kv-cache-blocks', `opened:${servingOom.signature?.id ?? ''}`],
      open: 2,
      count: 1,
    },
    {
      scenario: 'the same start seen again (a watcher run again over the same log) counts once',
      events: [failure('a', 1), failure('a', 5), ready('b', 6), ready('b', 7)],
      kinds: ['opened:vllm-no-kv-cache-blocks', 'resolved:vllm-no-kv-cache-blocks'],
      open: 0,
      count: 1,
    },
    {
      scenario: 'a ready start of another target resolves nothing here',
      events: [failure('a', 1), ready('z', 2, 'other.service')],
      kinds: ['opened:vllm-no-kv-cache-blocks'],
      open: 1,
      count: 1,
    },
    {
      scenario: 'the same cause after a recovery is a new incident',
      events: [failure('a', 1), ready('b', 2), failure('c', 3)],
      kinds: [
        'opened:vllm-no-kv-cache-blocks',
        'resolved:vllm-no-kv-cache-blocks',
        'opened:vllm-no-kv-cache-blocks',
      ],
      open: 1,
      count: 1,
    },
  ])('$scenario', ({ events, kinds, open, count }) => {
    const result = run(events);
    expect(result.kinds).toEqual(kinds);
    expect(result.state.incidents.filter((incident) => incident.status === 'open')).toHaveLength(open);
    expect(result.state.incidents[0]?.count).toBe(count);
  });

  it('names the incident from the diagnosis: category, cause, fix, phase', () => {
    const { state } = run([failure('a', 1), failure('b', 2, servingOom)]);
    expect(state.incidents[0]).toMatchObject({
      category: 'kv-cache-insufficient',
      cause: 'No GPU memory left for the KV cache',
      phase: 'start-up',
      firstSeen: '2026-03-03T10:00:01.000Z',
    });
    expect(state.incidents[0]?.fix).toContain('--gpu-memory-utilization');
    expect(state.incidents[1]).toMatchObject({ category: 'oom-gpu', phase: 'serving' });
  });

  it('keeps at most the bound, the oldest resolved dropped first', () => {
    const events: WatcherEvent[] = [];
    for (let index = 0; index < INCIDENT_LIMITS.incidents + 10; index += 1) {
      events.push(failure(`f${index}`, index % 60, kvCache, `t${index}`));
      if (index < 20) events.push(ready(`r${index}`, index % 60, `t${index}`));
    }
    const { state } = run(events);
    expect(state.incidents).toHaveLength(INCIDENT_LIMITS.incidents);
    expect(state.incidents.filter((incident) => incident.status === 'resolved')).toHaveLength(10);
    expect(state.incidents.some((incident) => incident.target === 't0')).toBe(false);
  });
});

describe('undelivered', () => {
  it('owes each receiver what it has not acknowledged, a firing before its resolution', () => {
    let { state } = run([failure('a', 1), ready('b', 2), failure('c', 3, servingOom)]);
    const [first, second] = state.incidents;
    state = markDelivered(state, first?.id ?? '', 'webhook', 'firing');
    const due = undelivered(state, ['webhook', 'alertmanager']).map(
      (item) => `${item.receiver}:${item.kind}:${item.incident === state.incidents[0] ? 1 : 2}`,
    );
    expect(due).toEqual([
      'webhook:resolved:1',
      'alertmanager:firing:1',
      'alertmanager:resolved:1',
      'webhook:firing:2',
      'alertmanager:firing:2',
    ]);
    expect(second?.status).toBe('open');
  });
});
