import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/sources/journal/format-journal-entry.js';
import { describeInvocation } from '../../src/sources/journal/read-unit-journal.js';
import {
  createInvocationFilter,
  createInvocationTracker,
} from '../../src/sources/journal/track-invocations.js';

const sys = (id: string | undefined, message: string): JournalEntry => ({
  _PID: '1',
  SYSLOG_IDENTIFIER: 'systemd',
  ...(id === undefined ? {} : { INVOCATION_ID: id }),
  MESSAGE: message,
});
const app = (id: string | undefined, message: string): JournalEntry => ({
  _PID: '42',
  SYSLOG_IDENTIFIER: 'vllm',
  ...(id === undefined ? {} : { _SYSTEMD_INVOCATION_ID: id }),
  MESSAGE: message,
});

function choose(entries: JournalEntry[]) {
  const tracker = createInvocationTracker();
  for (const entry of entries) tracker.note(entry);
  return tracker.choose();
}

describe('choosing the invocation', () => {
  it.each([
    ['exit status 1', 'x.service: Main process exited, code=exited, status=1/FAILURE', true],
    ['killed', 'x.service: Main process exited, code=killed, status=9/KILL', true],
    ['core dump', 'x.service: Main process exited, code=dumped, status=6/ABRT', true],
    ['failed result', "x.service: Failed with result 'timeout'.", true],
    ['oom', 'x.service: A process of this unit has been killed by the OOM killer.', true],
    ['clean exit', 'x.service: Main process exited, code=exited, status=0/SUCCESS', false],
    ['deactivated', 'x.service: Deactivated successfully.', false],
  ])('%s counts as failed: %s', (_what, message, failed) => {
    const choice = choose([sys('a', 'Starting x...'), app('a', 'hi'), sys('a', message)]);
    expect(choice).toMatchObject({ target: 'a', targetFailed: failed, failed: failed ? 1 : 0 });
  });

  it('picks the last failed invocation, not a later healthy one, and where it begins and ends', () => {
    const at = (entry: JournalEntry, cursor: string): JournalEntry => ({ ...entry, __CURSOR: cursor });
    const choice = choose([
      at(sys('a', 'Starting x...'), 'c0'),
      at(sys('a', "x.service: Failed with result 'exit-code'."), 'c1'),
      at(app(undefined, 'no id yet'), 'c2'),
      at(app('b', 'first line of b'), 'c3'),
      at(sys('b', "x.service: Failed with result 'exit-code'."), 'c4'),
      at(sys('c', 'Starting x...'), 'c5'),
      at(app('c', 'serving'), 'c6'),
    ]);
    expect(choice).toEqual({
      target: 'b',
      targetFailed: true,
      invocations: 3,
      failed: 2,
      entries: 7,
      start: { ordinal: 3, cursor: 'c3' },
      end: { ordinal: 5, cursor: 'c5' },
      // c began after b failed and has not ended: the unit is up again (no timestamps in these entries).
      running: { invocation: 'c', since: 'Jan 01 00:00:00' },
      window: { from: undefined, to: undefined },
    });
  });

  it('times the target from its first entry to its last, the failure line included', () => {
    const at = (entry: JournalEntry, seconds: number): JournalEntry => ({
      ...entry,
      __REALTIME_TIMESTAMP: String(seconds * 1_000_000),
    });
    const choice = choose([
      at(sys('a', 'Starting x...'), 100),
      at(app('a', 'loading'), 160),
      at(app(undefined, 'traceback line without an id'), 170),
      at(sys('a', "x.service: Failed with result 'exit-code'."), 171),
      at(sys('b', 'Starting x...'), 200),
    ]);
    expect(choice.window).toEqual({ from: '100000000', to: '171000000' });
  });

  it('has no end for the last invocation and no cursor when journalctl gives none', () => {
    expect(choose([app('a', 'x'), sys('a', "Failed with result 'x'")])).toMatchObject({
      start: { ordinal: 0, cursor: undefined },
      end: undefined,
    });
  });

  it('blames the current invocation for a failure message without an id', () => {
    const choice = choose([
      app('a', 'x'),
      app('b', 'y'),
      sys(undefined, "x.service: Failed with result 'signal'."),
    ]);
    expect(choice).toMatchObject({ target: 'b', targetFailed: true });
  });

  it('has no target when the journal has no invocation ids (systemd before 232)', () => {
    expect(choose([app(undefined, 'x'), sys(undefined, "Failed with result 'x'")]).target).toBeUndefined();
  });
});

describe('filtering the second pass', () => {
  it('keeps all systemd lines, the target app lines, and id-less lines written during it', () => {
    const keep = createInvocationFilter('b');
    const entries = [
      sys('a', 'Starting'),
      app('a', 'a1'),
      sys('b', 'Starting'),
      app('b', 'b1'),
      app(undefined, 'b2 without id'),
      sys('c', 'Starting'),
      app(undefined, 'c1 without id'),
    ];
    expect(entries.filter(keep).map((entry) => entry.MESSAGE)).toEqual([
      'Starting',
      'Starting',
      'b1',
      'b2 without id',
      'Starting',
    ]);
  });

  it('keeps everything without a target', () => {
    const keep = createInvocationFilter(undefined);
    expect([app('a', 'x'), app(undefined, 'y')].every(keep)).toBe(true);
  });
});

describe('describing what was read of a unit', () => {
  const micros = (iso: string): string => String(Date.parse(iso) * 1000);
  it.each([
    [
      'the same day once',
      { from: micros('2026-02-20T23:31:07Z'), to: micros('2026-02-20T23:36:26Z') },
      'journal of x.service, last failed invocation 3f2a1b0c, Feb 20 23:31:07-23:36:26',
    ],
    [
      'both days across midnight',
      { from: micros('2026-02-20T23:59:07Z'), to: micros('2026-02-21T00:01:26Z') },
      'journal of x.service, last failed invocation 3f2a1b0c, Feb 20 23:59:07 to Feb 21 00:01:26',
    ],
    [
      'no end',
      { from: micros('2026-02-20T23:31:07Z'), to: undefined },
      'journal of x.service, last failed invocation 3f2a1b0c, Feb 20 23:31:07',
    ],
    ['no times', { from: undefined, to: undefined }, 'journal of x.service, last failed invocation 3f2a1b0c'],
  ])('%s', (_, window, expected) => {
    expect(describeInvocation('x.service', 'last failed invocation', '3f2a1b0c-9d8e', window)).toBe(expected);
  });
});
