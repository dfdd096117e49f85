import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDiagnosisSession } from '../../src/diagnosis/index.js';
import { watchUnit, type WatchEvent, type WatchUnitOptions } from '../../src/supervision/index.js';
import {
  JOURNAL_REMOTE,
  entriesFromShortLog,
  writeJournalFile,
  type JournalFields,
} from '../sources/helpers/write-journal.js';
import { tempDir } from './helpers/supervise-fixture.js';

// Real journal files written by systemd-journal-remote, read through the real journalctl. systemd itself
// does not run here (nor in CI): systemctl fails and the watch goes on from the journal alone.

const UNIT = 'vllm-kimi-k25.service';
const incident = readFileSync(
  new URL('../../examples/vllm-kimi-k25-flashinfer-mismatch.journal.log', import.meta.url),
  'utf8',
);
const incidentLines = incident.split('\n');
/** The second start of the incident, cut before its workers fail: still loading. */
const secondStartLoading = incidentLines
  .slice(
    0,
    incidentLines.findIndex((line) => line.includes('WorkerProc failed to start') && line.includes('23:32:')),
  )
  .join('\n');

function entries(text: string): JournalFields[] {
  return entriesFromShortLog(text, { unit: UNIT });
}

/** Short-format journal lines of a healthy vLLM start, as its unit would log them. */
function healthyStart(): string {
  const log = readFileSync(
    new URL('fixtures/logs/vllm-healthy-start.log', import.meta.url),
    'utf8',
  ).trimEnd();
  return [
    'Mar 02 10:00:00 llm-two systemd[1]: Starting vllm-kimi-k25.service - vLLM...',
    ...log.split('\n').map((line) => `Mar 02 10:00:01 llm-two vllm-kimi[4242]: ${line}`),
  ].join('\n');
}

async function watch(
  options: Partial<WatchUnitOptions>,
): Promise<{ exitCode: number; events: WatchEvent[] }> {
  const events: WatchEvent[] = [];
  const result = await watchUnit({
    unit: UNIT,
    env: { PATH: process.env.PATH },
    createDiagnosisSession: () => createDiagnosisSession(),
    onEvent: (event) => events.push(event),
    pollMs: 100,
    ...options,
  });
  return { exitCode: result.exitCode, events };
}

const failureOf = (events: WatchEvent[]) => events.find((event) => event.type === 'failure');

const LOCAL_MACHINE = existsSync('/etc/machine-id') ? readFileSync('/etc/machine-id', 'utf8').trim() : '';
/** The entries as the host with this machine id wrote them. */
const onMachine = (list: JournalFields[], machine: string): JournalFields[] =>
  list.map((entry) => ({ ...entry, _MACHINE_ID: machine }));

/** A systemctl that records its calls and says the unit is in a restart loop. */
function fakeSystemctl(dir: string): { calls: string; path: string } {
  const calls = join(dir, 'systemctl-calls');
  const fake = join(dir, 'systemctl');
  writeFileSync(
    fake,
    `#!/bin/sh\necho "$@" >> ${calls}\nif [ "$1" = show ]; then printf 'ActiveState=activating\\nSubState=auto-restart\\nResult=exit-code\\nNRestarts=2\\nExecMainStatus=1\\nInvocationID=aaaa\\nInactiveExitTimestamp=@1771630316\\n'; fi\n`,
  );
  chmodSync(fake, 0o755);
  return { calls, path: `${dir}:${process.env.PATH ?? ''}` };
}

describe.skipIf(JOURNAL_REMOTE === undefined)('watchUnit on real journal files', () => {
  it('diagnoses only the failed invocation of the incident and calls the restart loop', async () => {
    const file = join(tempDir(), 'incident.journal');
    await writeJournalFile(entries(incident), file);
    const { exitCode, events } = await watch({ journalFiles: [file], follow: false });
    expect(exitCode).toBe(1);
    const failure = failureOf(events);
    expect(failure).toMatchObject({
      type: 'failure',
      failedStarts: 2,
      restartLoop: true,
      invocation: { index: 2 },
    });
    if (failure?.type !== 'failure') return;
    expect(failure.failure.exit).toEqual({ code: 1, signal: null });
    const diagnosis = failure.failure.diagnosis;
    expect(diagnosis.rootCause?.message).toContain(
      'flashinfer-cubin version (0.6.3) does not match flashinfer version (0.6.4)',
    );
    expect(diagnosis.signature?.id).toBe('flashinfer-version-mismatch');
    // The header's count and the report's service row agree, though the report read one start's lines.
    expect(diagnosis.service).toMatchObject({ starts: 2, failedStarts: 2, restartLoop: true });
    // The second start's lines only: the first start's 775 lines were not fed to its diagnosis.
    expect(diagnosis.input.lines).toBeLessThan(800);
    expect(diagnosis.evidence.every((line) => line.text.includes('23:32:'))).toBe(true);
    // What was read, in diagnose's words: the start's own window of the journal.
    expect(diagnosis.input.source).toMatch(
      /^journal of vllm-kimi-k25\.service, failed invocation [0-9a-f]{8}, Feb 20 23:3\d:\d\d-23:3\d:\d\d$/,
    );
  });

  it('follows a journal folder while the unit loads and reports the failure as it is written', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'journal'));
    const file = join(dir, 'journal', 'system.journal');
    await writeJournalFile(entries(secondStartLoading), file);
    const watching = watch({ journalDirectory: join(dir, 'journal') });
    await new Promise((resolve) => setTimeout(resolve, 800));
    const rest = incidentLines.slice(secondStartLoading.split('\n').length).join('\n');
    // Both Starting lines first, so the appended entries carry the second invocation's id.
    await writeJournalFile(
      entries(`${incidentLines[0] ?? ''}\n${incidentLines[776] ?? ''}\n${rest}`).slice(2),
      file,
    );
    const { exitCode, events } = await watching;
    expect(exitCode).toBe(1);
    expect(events.some((event) => event.type === 'progress')).toBe(true);
    const failure = failureOf(events);
    expect(failure).toMatchObject({ invocation: { index: 2 }, restartLoop: true });
    expect(failure?.type === 'failure' && failure.failure.diagnosis.signature?.id).toBe(
      'flashinfer-version-mismatch',
    );
  });

  it('follows a single journal file by polling after its last cursor', async () => {
    const file = join(tempDir(), 'unit.journal');
    const start = healthyStart().split('\n');
    await writeJournalFile(entries(start.slice(0, 15).join('\n')), file);
    const watching = watch({ journalFiles: [file] });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await writeJournalFile(entries(start.join('\n')).slice(15), file);
    const { exitCode, events } = await watching;
    expect(exitCode).toBe(0);
    expect(events.find((event) => event.type === 'ready')).toMatchObject({ invocation: { status: 'ready' } });
  });

  it('says the unit is still starting when not following', async () => {
    const file = join(tempDir(), 'unit.journal');
    await writeJournalFile(entries(secondStartLoading), file);
    const { exitCode, events } = await watch({ journalFiles: [file], follow: false });
    expect(exitCode).toBe(0);
    expect(events.at(-1)).toMatchObject({
      type: 'note',
      text: expect.stringContaining('is still starting') as unknown,
    });
  });

  it('stops the unit after a failed start with --stop-on-crash, through systemctl', async () => {
    const dir = tempDir();
    const file = join(dir, 'incident.journal');
    await writeJournalFile(onMachine(entries(incident), LOCAL_MACHINE), file);
    const systemctl = fakeSystemctl(dir);
    const { exitCode, events } = await watch({
      journalFiles: [file],
      follow: false,
      stopOnCrash: true,
      env: { PATH: systemctl.path },
    });
    expect(exitCode).toBe(1);
    expect(readFileSync(systemctl.calls, 'utf8')).toContain(`stop ${UNIT}`);
    expect(events[0]).toMatchObject({
      type: 'note',
      text: expect.stringContaining('activating (auto-restart)') as unknown,
    });
    expect(events.at(-1)).toMatchObject({
      type: 'note',
      text: expect.stringContaining(`stopped ${UNIT}`) as unknown,
    });
  });

  it.skipIf(LOCAL_MACHINE === '')(
    'does not stop a local unit of the same name when the journal file comes from another host',
    async () => {
      const dir = tempDir();
      const file = join(dir, 'incident.journal');
      await writeJournalFile(onMachine(entries(incident), '0123456789abcdef0123456789abcdef'), file);
      const systemctl = fakeSystemctl(dir);
      const { exitCode, events } = await watch({
        journalFiles: [file],
        follow: false,
        stopOnCrash: true,
        env: { PATH: systemctl.path },
      });
      expect(exitCode).toBe(1);
      expect(existsSync(systemctl.calls) ? readFileSync(systemctl.calls, 'utf8') : '').not.toContain('stop ');
      expect(events.at(-1)).toMatchObject({
        type: 'note',
        text: expect.stringMatching(
          /^not stopping vllm-kimi-k25\.service: the journal comes from another host \(machine 0123/,
        ) as unknown,
      });
    },
  );
});
