import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDiagnosisSession } from '../../src/diagnosis/index.js';
import { watchUnit, type WatchEvent } from '../../src/supervision/index.js';
import { JOURNAL_REMOTE, entriesFromShortLog, writeJournalFile } from '../sources/helpers/write-journal.js';
import { tempDir, waitFor } from './helpers.js';

// `watch --follow --unit`: real journal files (systemd-journal-remote) read and followed by the real
// journalctl, across a new invocation of the unit.

const UNIT = 'vllm-kimi-k25.service';
const incident = readFileSync(
  new URL('../../examples/vllm-kimi-k25-flashinfer-mismatch.journal.log', import.meta.url),
  'utf8',
).trimEnd();
const healthy = readFileSync(
  new URL('../supervision/fixtures/logs/vllm-healthy-start.log', import.meta.url),
  'utf8',
)
  .trimEnd()
  .split('\n');
const recovery = [
  'Mar 02 10:00:00 llm-two systemd[1]: Starting vllm-kimi-k25.service - vLLM...',
  ...healthy.map((line) => `Mar 02 10:00:01 llm-two vllm-kimi[4242]: ${line}`),
].join('\n');

describe.skipIf(JOURNAL_REMOTE === undefined)('watchUnit, continuous', () => {
  it('reports the failed invocation, then follows the next one to ready, until stopped', async () => {
    const dir = join(tempDir(), 'journal');
    mkdirSync(dir);
    const file = join(dir, 'system.journal');
    const all = entriesFromShortLog(`${incident}\n${recovery}`, { unit: UNIT });
    const before = entriesFromShortLog(incident, { unit: UNIT });
    await writeJournalFile(before, file);
    const events: WatchEvent[] = [];
    const controller = new AbortController();
    const watching = watchUnit({
      unit: UNIT,
      env: { PATH: process.env.PATH },
      journalDirectory: dir,
      createDiagnosisSession: () => createDiagnosisSession(),
      onEvent: (event) => events.push(event),
      pollMs: 100,
      continuous: true,
      signal: controller.signal,
    });
    await waitFor('the failure', () => events.some((event) => event.type === 'failure'));
    await writeJournalFile(all.slice(before.length), file);
    await waitFor('the new start to be ready', () => events.some((event) => event.type === 'ready'));
    controller.abort();
    const result = await watching;
    expect(result.exitCode).toBe(0);
    const told = events
      .filter((event) => event.type === 'started' || event.type === 'ready' || event.type === 'failure')
      .map(
        (event) =>
          `${event.type} ${event.type === 'started' || event.type === 'ready' || event.type === 'failure' ? event.invocation.index : ''}`,
      );
    expect(told).toEqual(['started 2', 'failure 2', 'started 3', 'ready 3']);
    const failure = events.find((event) => event.type === 'failure');
    expect(failure?.type === 'failure' && failure.failure.diagnosis.signature?.id).toBe(
      'flashinfer-version-mismatch',
    );
  });
});
