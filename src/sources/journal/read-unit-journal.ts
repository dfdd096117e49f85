import { SourceError } from '../../errors.js';
import type { CommandRunner } from '../../system/run-command.js';
import type { OpenedSource } from '../types.js';
import { qualifyUnitName, validateUnitName } from '../validate-names.js';
import { checkJournalPaths, type UnitJournalSpec } from './check-journal-paths.js';
import { fieldText, formatJournalEntry, formatTimestamp } from './format-journal-entry.js';
import { journalArgs, journalOptions } from './journalctl-args.js';
import { parseExportEntries } from './parse-export.js';
import {
  createInvocationFilter,
  createInvocationTracker,
  isSystemdEntry,
  type InvocationChoice,
} from './track-invocations.js';

/** Fields the passes read: ids to choose and filter by, where each invocation begins, what a line prints. */
const ENTRY_FIELDS = new Set([
  '__CURSOR',
  '__REALTIME_TIMESTAMP',
  '_SYSTEMD_INVOCATION_ID',
  'INVOCATION_ID',
  '_PID',
  'SYSLOG_PID',
  'SYSLOG_IDENTIFIER',
  '_COMM',
  '_HOSTNAME',
  'MESSAGE',
]);
const BATCH_CHARS = 256 * 1024;

interface SystemdLine {
  ordinal: number;
  text: string;
}

/**
 * Reads a unit's journal in two journalctl passes, so memory stays bounded by one invocation whatever the
 * journal's size. The first pass reads every entry of the unit but keeps only invocation ids, where each
 * begins, and systemd's own lines (a few per start). The second starts at the chosen invocation's cursor
 * and stops where the next begins, so a long-running unit's journal is read in full only once.
 */
export async function openUnitJournal(
  spec: UnitJournalSpec,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<OpenedSource> {
  validateUnitName(spec.unit);
  const unit = qualifyUnitName(spec.unit);
  // Paths on another host are that host's; its journalctl says when one is missing.
  if (runner.host === null) await checkJournalPaths(spec);
  const warnings: string[] = [];
  const options = journalOptions({ env }, timeoutMs);

  const first = await runner.start('journalctl', buildArgs(unit, spec), options);
  const tracker = createInvocationTracker();
  const systemdLines: SystemdLine[] = [];
  let ordinal = 0;
  for await (const entries of parseExportEntries(first.chunks, ENTRY_FIELDS, warnings)) {
    for (const entry of entries) {
      tracker.note(entry);
      if (isSystemdEntry(entry)) systemdLines.push({ ordinal, text: formatJournalEntry(entry) });
      ordinal += 1;
    }
  }
  const choice = tracker.choose();
  if (choice.entries === 0) {
    const where = runner.host === null ? 'the journal' : `the journal on ${runner.host}`;
    throw new SourceError(
      `${where} holds no entries for ${unit}; check the unit name, --since, and that you may read the journal (root or group systemd-journal)`,
    );
  }
  warnings.push(...hintsFrom(first.stderrText()));
  const { start, end } = choice;
  const windowed = choice.target !== undefined && start?.cursor !== undefined;

  async function* emit(): AsyncGenerator<Uint8Array> {
    // systemd's lines outside the target's window come from the first pass; inside it, from the second.
    const before = windowed ? linesBetween(systemdLines, 0, start.ordinal) : '';
    if (before !== '') yield Buffer.from(before);
    // journalctl refuses --since together with --cursor; the cursor lies inside the --since window anyway.
    // (Export writes every field whole: JSON needed --all for those over 4 KiB.)
    const args = windowed
      ? [...buildArgs(unit, { ...spec, since: undefined }), `--cursor=${start.cursor}`]
      : buildArgs(unit, spec);
    const second = await runner.start('journalctl', args, options);
    const keep = createInvocationFilter(choice.target);
    let batch = '';
    reading: for await (const entries of parseExportEntries(second.chunks, ENTRY_FIELDS, warnings)) {
      for (const entry of entries) {
        if (windowed && end?.cursor !== undefined && fieldText(entry, '__CURSOR') === end.cursor)
          break reading;
        if (keep(entry)) batch += formatJournalEntry(entry);
      }
      if (batch.length >= BATCH_CHARS) {
        yield Buffer.from(batch);
        batch = '';
      }
    }
    if (windowed && end !== undefined) batch += linesBetween(systemdLines, end.ordinal, Infinity);
    if (batch.length > 0) yield Buffer.from(batch);
  }

  return {
    chunks: emit(),
    describe: describeChoice(unit, choice),
    unit,
    ...(choice.running === undefined ? {} : { runningSince: choice.running.since }),
    formats: ['journal-json'],
    warnings,
  };
}

function linesBetween(lines: SystemdLine[], from: number, to: number): string {
  return lines
    .filter((line) => line.ordinal >= from && line.ordinal < to)
    .map((line) => line.text)
    .join('');
}

function buildArgs(unit: string, spec: UnitJournalSpec): string[] {
  const args = journalArgs({ unit, files: spec.journalFile, directory: spec.journalDir }, 'export');
  if (spec.since !== undefined) args.push(`--since=${spec.since}`);
  return args;
}

/** journalctl succeeds but says on stderr when it hides entries (permissions) or skips a file. */
function hintsFrom(stderr: string): string[] {
  return stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .slice(0, 3)
    .map((line) => `journalctl: ${line}`);
}

function describeChoice(unit: string, choice: InvocationChoice): string {
  const starts = `${choice.failed} of ${choice.invocations} invocations failed`;
  if (choice.target === undefined) return `journal of ${unit} (no invocation ids; all lines)`;
  const later =
    choice.running === undefined ? '' : `; a later start ${choice.running.invocation.slice(0, 8)} is running`;
  const which = choice.targetFailed ? 'last failed invocation' : 'last invocation';
  return `${describeInvocation(unit, which, choice.target, choice.window)} (${starts})${later}`;
}

/**
 * What was read of a unit, for every report (diagnose's and watch's): `journal of vllm.service, last
 * failed invocation 3f2a1b0c, Feb 20 23:31:07-23:36:26`. Times are the entries' own, as journalctl's short
 * format prints them.
 */
export function describeInvocation(
  unit: string,
  which: string,
  invocation: string | undefined,
  window: { from: string | undefined; to: string | undefined },
): string {
  const id = invocation === undefined ? '' : ` ${invocation.slice(0, 8)}`;
  if (window.from === undefined) return `journal of ${unit}, ${which}${id}`;
  const from = formatTimestamp(window.from);
  const to = window.to === undefined ? '' : formatTimestamp(window.to);
  // The same day is not printed twice: `Feb 20 23:31:07-23:36:26`.
  const end = to === '' ? '' : to.slice(0, 6) === from.slice(0, 6) ? `-${to.slice(7)}` : ` to ${to}`;
  return `journal of ${unit}, ${which}${id}, ${from}${end}`;
}
