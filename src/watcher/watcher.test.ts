import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { diagnose } from '../diagnosis/index.js';
import { emptyIncidentState, type IncidentNotice } from '../incidents/index.js';
import type { InvocationSummary, StartFailure } from '../supervision/index.js';
import { IncidentStore } from './incident-store.js';
import type { Receiver } from './receivers.js';
import { Watcher } from './watcher.js';

const servingDeath = diagnose(
  readFileSync(
    new URL('../../test/supervision/fixtures/logs/vllm-engine-dead-while-serving.log', import.meta.url),
    'utf8',
  ),
);

function invocation(index: number): InvocationSummary {
  return {
    id: `start-${index}`,
    index,
    status: 'starting',
    startedAtMs: index * 60_000,
    endedAtMs: null,
    progress: { phase: null, facts: {}, readyAtMs: null } as unknown as InvocationSummary['progress'],
    exit: null,
    restartCounter: null,
    diagnosis: null,
  };
}

function failure(): StartFailure {
  return {
    reason: 'dead',
    exit: null,
    ranMs: 1000,
    ready: true,
    phase: null,
    phaseMs: null,
    progress: { phase: null, facts: {}, readyAtMs: 0 } as unknown as StartFailure['progress'],
    diagnosis: servingDeath,
    lastLines: [],
    exitSeenAt: null,
  };
}

/** A receiver in memory: the notices it was given, in order. */
function keepNotices(): { receiver: Receiver; notices: IncidentNotice[] } {
  const notices: IncidentNotice[] = [];
  return {
    notices,
    receiver: {
      name: 'kept',
      label: 'kept',
      refreshMs: null,
      wants: () => true,
      send: (notice) => {
        notices.push(notice);
        return Promise.resolve();
      },
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('Watcher over a long crash loop', () => {
  // A server that dies while serving and recovers each time opens an incident per death (each resolved):
  // over weeks that is thousands, and the watcher must not keep each one's diagnosis in memory.
  it('holds the diagnoses of open incidents only, whatever the number of incidents it saw', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-04T00:00:00Z'));
    const dir = mkdtempSync(join(tmpdir(), 'vigil-watcher-bound-'));
    try {
      const { receiver, notices } = keepNotices();
      const watcher = new Watcher({
        store: new IncidentStore(dir),
        state: emptyIncidentState(),
        receivers: [receiver],
        redact: false,
        renderPage: () => '<html></html>',
        log: () => undefined,
      });
      const deaths = 60;
      for (let index = 1; index <= deaths; index += 1) {
        // Minutes apart, as a crash every few minutes: each incident has its own id.
        vi.setSystemTime(new Date(Date.UTC(2026, 11, 4, 0, index * 3)));
        const start = invocation(index);
        watcher.onEvent('log:server.log', 'gpu-1', { type: 'started', invocation: start });
        watcher.onEvent('log:server.log', 'gpu-1', { type: 'ready', elapsedMs: 1000, invocation: start });
        watcher.onEvent('log:server.log', 'gpu-1', {
          type: 'failure',
          failure: failure(),
          invocation: start,
          failedStarts: 1,
          restartLoop: false,
        });
        expect(watcher.heldDiagnoses()).toBe(1);
      }
      // The last death is still open; every earlier one was resolved by the next ready start.
      const open = watcher.incidents().filter((incident) => incident.status === 'open');
      expect(open).toHaveLength(1);
      expect(watcher.incidents().length).toBe(deaths);
      const recovered = invocation(deaths + 1);
      watcher.onEvent('log:server.log', 'gpu-1', { type: 'started', invocation: recovered });
      watcher.onEvent('log:server.log', 'gpu-1', { type: 'ready', elapsedMs: 1000, invocation: recovered });
      expect(watcher.heldDiagnoses()).toBe(0);
      await watcher.close();
      // Forgetting it did not cost the receivers the diagnosis: each resolution still carries it.
      const resolutions = notices.filter((notice) => notice.kind === 'resolved');
      expect(resolutions).toHaveLength(deaths);
      expect(resolutions.every((notice) => notice.diagnosis === servingDeath)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
