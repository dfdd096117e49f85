import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDiagnosisSession } from '../../src/diagnosis/index.js';
import { watchUnit, type WatchEvent } from '../../src/supervision/index.js';
import { JOURNAL_REMOTE, entriesFromShortLog, writeJournalFile } from '../sources/helpers/write-journal.js';
import { tempDir, writeFakeCommand } from '../sources/helpers/fake-command.js';

const UNIT = 'vllm-kimi-k25.service';
const incident = readFileSync(
  new URL('../../examples/vllm-kimi-k25-flashinfer-mismatch.journal.log', import.meta.url),
  'utf8',
).split('\n');
/** The second start, cut while it loads: the journal has no end for it. */
const loading = incident
  .slice(
    0,
    incident.findIndex((line) => line.includes('WorkerProc failed to start') && line.includes('23:32:')),
  )
  .join('\n');

// systemctl stand-in: systemd does not run here; it answers as systemctl show does for a failed unit.
const FAILED_UNIT = `echo ActiveState=failed; echo SubState=failed; echo Result=exit-code; echo NRestarts=2; echo ExecMainStatus=1; echo InvocationID=; echo InactiveExitTimestamp=`;

describe.skipIf(JOURNAL_REMOTE === undefined)('watch --no-follow without a verdict in the journal', () => {
  it('says a unit systemd calls failed has failed (exit 1), not that it is still starting', async () => {
    const dir = await tempDir();
    await writeFakeCommand(dir, 'systemctl', FAILED_UNIT);
    const file = join(dir, 'unit.journal');
    await writeJournalFile(entriesFromShortLog(loading, { unit: UNIT }), file);
    const events: WatchEvent[] = [];
    const result = await watchUnit({
      unit: UNIT,
      env: { PATH: `${dir}:${process.env.PATH ?? ''}` },
      journalFiles: [file],
      follow: false,
      createDiagnosisSession: () => createDiagnosisSession(),
      onEvent: (event) => events.push(event),
    });
    const notes = events
      .filter((event) => event.type === 'note')
      .map((event) => (event.type === 'note' ? event.text : ''));
    expect(notes.at(-1)).toBe(
      `${UNIT} has failed (result exit-code), but the journal read shows no end of its last start; try vigil diagnose --unit ${UNIT}`,
    );
    expect(notes.some((note) => note.includes('still starting'))).toBe(false);
    expect(result.exitCode).toBe(1);
  });
});
