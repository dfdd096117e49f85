import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createDiagnosisSession } from '../../src/diagnosis/index.js';
import type { WatchEvent } from '../../src/supervision/watch/watch-session.js';
import { watchLog } from '../../src/supervision/watch/watch-log.js';
import { tempDir } from './helpers/supervise-fixture.js';

// `vigil watch --follow` says it is following only once each target calls onLive: a line written before
// then is the backlog (history, not an incident), a line written after is reported. A busy machine that
// opened the file late used to take a death written right after the announcement for history.

const logOf = (name: string): string =>
  readFileSync(fileURLToPath(new URL(`fixtures/logs/${name}.log`, import.meta.url)), 'utf8');

describe('watchLog onLive', () => {
  it('comes after the backlog is read, and a death written after it is reported', async () => {
    const path = join(tempDir(), 'server.log');
    writeFileSync(path, logOf('vllm-healthy-start'));
    const controller = new AbortController();
    const events: WatchEvent[] = [];
    let eventsBeforeLive = -1;
    let live = (): void => undefined;
    const wentLive = new Promise<void>((resolve) => (live = resolve));
    const watching = watchLog({
      path,
      pollMs: 20,
      signal: controller.signal,
      continuous: true,
      createDiagnosisSession: () => createDiagnosisSession(),
      onEvent: (event) => events.push(event),
      onLive: () => {
        eventsBeforeLive = events.length;
        live();
      },
    });
    await wentLive;
    // The backlog's start is announced before onLive; its death has not been written yet.
    expect(events.slice(0, eventsBeforeLive).map((event) => event.type)).toContain('started');
    expect(events.some((event) => event.type === 'failure')).toBe(false);
    appendFileSync(path, logOf('vllm-engine-dead-while-serving') + logOf('vllm-healthy-start'));
    const deadline = Date.now() + 15_000;
    while (!events.some((event) => event.type === 'failure') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await watching;
    expect(events.filter((event) => event.type === 'failure')).toHaveLength(1);
  }, 30_000);
});
