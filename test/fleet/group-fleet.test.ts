import { describe, expect, it } from 'vitest';
import { describeCause, groupFleet } from '../../src/fleet/group-fleet.js';
import type { FleetInput, PodEvent, PodState } from '../../src/fleet/types.js';
import type { Diagnosis } from '../../src/types/diagnosis.js';

function failure(exception: string | null, message: string, signature?: string): Diagnosis {
  return {
    verdict: 'failure',
    rootCause: {
      exception,
      message,
      line: message,
      lineNumber: 1,
      processes: [],
      raiseSite: null,
      crashSite: null,
    },
    signature:
      signature === undefined
        ? null
        : { id: signature, title: signature, category: 'other', explanation: '', fix: 'fix it' },
  } as unknown as Diagnosis;
}
const NONE = { verdict: 'no-failure', rootCause: null, signature: null } as unknown as Diagnosis;

function state(terminated: PodState['terminated'], reason: string | null = null): PodState {
  return {
    phase: 'Running',
    reason,
    container: 'vllm',
    restartCount: 1,
    ready: false,
    waiting: 'CrashLoopBackOff',
    terminated,
  };
}
function member(name: string, parts: Partial<FleetInput>): FleetInput {
  return { name, source: `logs of ${name}`, diagnosis: NONE, error: null, state: null, events: [], ...parts };
}
const event = (reason: string, message: string, type = 'Warning'): PodEvent => ({
  type,
  reason,
  message,
  count: 1,
});

describe('describeCause', () => {
  it.each<[string, Partial<FleetInput>, string, string]>([
    [
      'a traceback in the log',
      { diagnosis: failure('torch.OutOfMemoryError', 'CUDA out of memory', 'cuda-out-of-memory') },
      'log',
      'signature:cuda-out-of-memory',
    ],
    [
      'OOMKilled with an empty log',
      { state: state({ reason: 'OOMKilled', exitCode: 137, message: null }) },
      'killed',
      'killed:OOMKilled',
    ],
    ['an evicted pod', { state: state(null, 'Evicted') }, 'killed', 'killed:Evicted'],
    [
      'a liveness probe kill',
      {
        state: state({ reason: 'Error', exitCode: 137, message: null }),
        events: [
          event('Unhealthy', 'Liveness probe failed: HTTP probe failed with statuscode: 503'),
          event('Killing', 'Container vllm failed liveness probe, will be restarted', 'Normal'),
        ],
      },
      'killed',
      'killed:probe',
    ],
    [
      'a pod never scheduled',
      {
        diagnosis: null,
        error: 'kubectl logs failed',
        events: [event('FailedScheduling', '0/4 nodes are available: 4 Insufficient nvidia.com/gpu.')],
      },
      'event',
      'event:FailedScheduling|NP nodes are available: N Insufficient nvidia.comP',
    ],
    [
      'an unreadable member',
      { diagnosis: null, error: 'kubectl logs failed (status 1): Forbidden' },
      'unreadable',
      'unreadable',
    ],
    ['a healthy member', {}, 'none', 'none'],
  ])('%s', (_, parts, kind, key) => {
    expect(describeCause(member('p', parts))).toMatchObject({ kind, key });
  });

  it.each([
    [
      'NCCL watchdog',
      'RuntimeError',
      '[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE) ran for 600000 milliseconds',
    ],
    [
      'gloo',
      'RuntimeError',
      '[../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.0.0.2]:41233',
    ],
    [
      'Ray',
      'ray.exceptions.ActorDiedError',
      'The actor died unexpectedly before finishing this task. worker died',
    ],
  ])('calls a %s failure a peer failure', (_, exception, message) => {
    expect(describeCause(member('p', { diagnosis: failure(exception, message) })).peer).toBe(true);
  });
});

describe('groupFleet', () => {
  const own = failure('ValueError', 'bad config', 'config-invalid');
  const peer = failure('RuntimeError', 'Connection closed by peer [10.0.0.1]:1234');

  it('marks peer failures as such only when some member has a cause of its own', () => {
    const withOwn = groupFleet('t', [
      member('a', { diagnosis: own }),
      member('b', { diagnosis: peer }),
      member('c', { diagnosis: peer }),
    ]);
    expect(withOwn.groups.map((group) => [group.role, group.members])).toEqual([
      ['peer', ['b', 'c']],
      ['own', ['a']],
    ]);
    const alone = groupFleet('t', [member('b', { diagnosis: peer }), member('c', { diagnosis: peer })]);
    expect(alone.groups.map((group) => group.role)).toEqual(['own']);
    expect(alone.members.every((m) => !m.cause.peer)).toBe(true);
  });

  it('puts the biggest group first and healthy or unreadable members last', () => {
    const report = groupFleet('t', [
      member('h1', {}),
      member('h2', {}),
      member('h3', {}),
      member('x', { diagnosis: null, error: 'gone' }),
      member('o1', { diagnosis: own }),
      member('k1', { state: state({ reason: 'OOMKilled', exitCode: 137, message: null }) }),
      member('k2', { state: state({ reason: 'OOMKilled', exitCode: 137, message: null }) }),
    ]);
    expect(report.groups.map((group) => group.members)).toEqual([
      ['k1', 'k2'],
      ['o1'],
      ['x'],
      ['h1', 'h2', 'h3'],
    ]);
    expect(report).toMatchObject({ total: 7, failed: 3 });
  });
});
