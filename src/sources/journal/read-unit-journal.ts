import { stat } from 'node:fs/promises';
import { SourceError } from '../../errors.js';
import { describeReadError } from '../describe-read-error.js';
import { splitLines } from '../split-lines.js';
import { startCommand } from '../stream-command.js';
import type { OpenedSource } from '../types.js';
import { qualifyUnitName, validateUnitName } from '../validate-names.js';
import { formatJournalEntry, type JournalEntry } from './format-journal-entry.js';
import {
  createInvocationFilter,
  createInvocationTracker,
  type InvocationChoice,
} from './track-invocations.js';

export interface UnitJournalSpec {
  unit: string;
  journalFile?: string[];
  journalDir?: string;
  since?: string;
}

/** Fields the first pass needs; the rest of each entry (most of its bytes) is not worth printing twice. */
const CHOICE_FIELDS = '_SYSTEMD_INVOCATION_ID,INVOCATION_ID,_PID,SYSLOG_IDENTIFIER,MESSAGE';
const BATCH_CHARS = 256 * 1024;

/**
 * Reads a unit's journal in two journalctl passes, so memory stays bounded whatever the journal's size:
 * the first finds the last failed invocation, the second prints it with systemd's lines about the unit.
 */
export async function openUnitJournal(
  spec: UnitJournalSpec,
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<OpenedSource> {
  validateUnitName(spec.unit);
  const unit = qualifyUnitName(spec.unit);
  await checkJournalPaths(spec);
  const args = buildArgs(unit, spec);
  const warnings: string[] = [];
  const options = {
    timeoutMs,
    env,
    missingHint:
      'run vigil on the host that holds the journal, or save the log with journalctl and pass the file',
  };

  const first = await startCommand('journalctl', [...args, `--output-fields=${CHOICE_FIELDS}`], options);
  const tracker = createInvocationTracker();
  for await (const entries of parseEntries(first.chunks, warnings))
    for (const entry of entries) tracker.note(entry);
  const choice = tracker.choose();
  if (choice.entries === 0) {
    throw new SourceError(
      `the journal holds no entries for ${unit}; check the unit name, --since, and that you may read the journal (root or group systemd-journal)`,
    );
  }
  warnings.push(...hintsFrom(first.stderrText()));

  async function* emit(): AsyncGenerator<Uint8Array> {
    // --all: without it journalctl writes fields over 4 KiB (a long `non-default args` line) as null.
    const second = await startCommand('journalctl', [...args, '--all'], options);
    const keep = createInvocationFilter(choice.target);
    let batch = '';
    for await (const entries of parseEntries(second.chunks, warnings)) {
      for (const entry of entries) if (keep(entry)) batch += formatJournalEntry(entry);
      if (batch.length >= BATCH_CHARS) {
        yield Buffer.from(batch);
        batch = '';
      }
    }
    if (batch.length > 0) yield Buffer.from(batch);
  }

  return {
    chunks: emit(),
    describe: describeChoice(unit, choice),
    unit,
    formats: ['journal-json'],
    warnings,
  };
}

function buildArgs(unit: string, spec: UnitJournalSpec): string[] {
  // `--opt=value` keeps a value that starts with '-' from being read as an option.
  const args = [`--unit=${unit}`, '--output=json', '--no-pager'];
  for (const file of spec.journalFile ?? []) args.push(`--file=${file}`);
  if (spec.journalDir !== undefined) args.push(`--directory=${spec.journalDir}`);
  if (spec.since !== undefined) args.push(`--since=${spec.since}`);
  return args;
}

/** Our own check gives `cannot read PATH: no such file` where journalctl says only "No such file". */
async function checkJournalPaths(spec: UnitJournalSpec): Promise<void> {
  const paths = [...(spec.journalFile ?? []).map((path) => ({ path, folder: false }))];
  if (spec.journalDir !== undefined) paths.push({ path: spec.journalDir, folder: true });
  for (const { path, folder } of paths) {
    try {
      const info = await stat(path);
      if (folder && !info.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
      if (!folder && info.isDirectory()) throw Object.assign(new Error('folder'), { code: 'EISDIR' });
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOTDIR' && folder
          ? 'not a folder'
          : describeReadError(error);
      throw new SourceError(`cannot read ${path}: ${reason}`, { cause: error });
    }
  }
}

async function* parseEntries(
  chunks: AsyncIterable<Uint8Array>,
  warnings: string[],
): AsyncGenerator<JournalEntry[]> {
  let skipped = 0;
  for await (const lines of splitLines(chunks)) {
    const entries: JournalEntry[] = [];
    for (const line of lines) {
      if (line.length === 0) continue;
      try {
        entries.push(JSON.parse(line) as JournalEntry);
      } catch {
        skipped += 1;
      }
    }
    yield entries;
  }
  if (skipped > 0)
    warnings.push(`journalctl printed ${skipped} lines that are not JSON entries; skipped them`);
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
  const which = choice.targetFailed ? 'last failed invocation' : 'last invocation';
  return `journal of ${unit}, ${which} ${choice.target.slice(0, 8)} (${starts})`;
}
