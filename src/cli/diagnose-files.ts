import { describeAllClear } from '../reporting/describe-health.js';
import { open } from 'node:fs/promises';
import { VigilError } from '../errors.js';
import { redactDiagnosis } from '../redaction/index.js';
import type { ReportFormat } from '../reporting/index.js';
import { isDevice, readFailed } from '../sources/describe-read-error.js';
import type { Diagnosis } from '../types/diagnosis.js';
import type { CliIo } from './io.js';
import type { PageInput } from './render-page.js';

/** One file's outcome: its diagnosis, or the one line saying why it could not be read. */
export type FileOutcome = { file: string; diagnosis: Diagnosis } | { file: string; error: string };

export interface DiagnoseEachOptions {
  format: ReportFormat | 'html';
  redact: boolean;
  /** One file's diagnosis (and timeline, for a page); throws a VigilError when it cannot be read. */
  diagnose(file: string): Promise<PageInput>;
  /** One file's report, as `vigil diagnose FILE` prints it. */
  render(diagnosis: Diagnosis): string;
  /** One page with a report per file. */
  page(inputs: PageInput[]): string;
}

/**
 * Several files are several logs: one verdict each (a rotated log and today's log are two starts, and
 * line numbers count within a file), then a summary with file:line. A file that cannot be read is its
 * own one line and does not stop the others. Exit 1 when any file holds a failure, else 2 when any could
 * not be read, else 0.
 */
export async function diagnoseEach(
  files: readonly string[],
  io: CliIo,
  options: DiagnoseEachOptions,
): Promise<number> {
  // A name that is missing or unreadable is a typo to fix before anything is read, as with one file.
  for (const file of files) if (file !== '-') await checkReadable(file);
  const outcomes: FileOutcome[] = [];
  const pages: PageInput[] = [];
  for (const file of files) {
    try {
      const input = await options.diagnose(file);
      pages.push({ ...input, label: file });
      outcomes.push({ file, diagnosis: input.diagnosis });
    } catch (error) {
      if (!(error instanceof VigilError)) throw error;
      io.stderr.write(`vigil: ${error.message}\n`);
      outcomes.push({ file, error: error.message });
    }
  }
  const { format } = options;
  io.stdout.write(
    format === 'html'
      ? options.page(pages)
      : format === 'json'
        ? renderJson(outcomes, options)
        : renderSections(outcomes, format, options) + summarizeFiles(outcomes, format, options.redact),
  );
  if (outcomes.some((outcome) => 'diagnosis' in outcome && outcome.diagnosis.verdict === 'failure')) return 1;
  return outcomes.some((outcome) => 'error' in outcome) ? 2 : 0;
}

async function checkReadable(path: string): Promise<void> {
  try {
    const handle = await open(path, 'r');
    const stats = await handle.stat();
    await handle.close();
    if (stats.isDirectory()) throw Object.assign(new Error('folder'), { code: 'EISDIR' });
    if (isDevice(path, stats)) throw Object.assign(new Error('device'), { code: 'ENOTLOG' });
  } catch (error) {
    throw readFailed(path, error);
  }
}

function renderJson(outcomes: FileOutcome[], options: DiagnoseEachOptions): string {
  const files = outcomes.map((outcome) =>
    'error' in outcome
      ? { file: outcome.file, error: outcome.error }
      : { file: outcome.file, diagnosis: JSON.parse(options.render(outcome.diagnosis)) as unknown },
  );
  return `${JSON.stringify({ files }, null, 2)}\n`;
}

function renderSections(outcomes: FileOutcome[], format: ReportFormat, options: DiagnoseEachOptions): string {
  const heading = (file: string): string =>
    options.format === 'markdown' ? `## ${file}\n\n` : `── ${file}\n`;
  return outcomes
    .map((outcome) =>
      'error' in outcome
        ? `${heading(outcome.file)}not read: ${outcome.error}\n\n`
        : `${heading(outcome.file)}${options.render(outcome.diagnosis)}\n`,
    )
    .join('');
}

/** One line per file: its verdict, and where the root cause is as file:line. */
export function summarizeFiles(outcomes: FileOutcome[], format: ReportFormat, redact: boolean): string {
  const failed = outcomes.filter(
    (outcome) => 'diagnosis' in outcome && outcome.diagnosis.verdict === 'failure',
  );
  const unread = outcomes.filter((outcome) => 'error' in outcome).length;
  const lines = outcomes.map((outcome) => {
    if ('error' in outcome) return `! ${outcome.error}`;
    const diagnosis = redact ? redactDiagnosis(outcome.diagnosis) : outcome.diagnosis;
    const root = diagnosis.rootCause;
    if (diagnosis.verdict === 'failure' && root !== null) {
      return `✖ ${outcome.file}:${root.lineNumber}: ${root.message}`;
    }
    const clear = describeAllClear(diagnosis);
    return `${clear.healthy ? '✔' : '–'} ${outcome.file}: ${clear.headline} in ${diagnosis.input.lines} lines`;
  });
  const counts = `${outcomes.length} files: ${failed.length} with a failure, ${outcomes.length - failed.length - unread} without, ${unread} not read`;
  return format === 'markdown'
    ? `## Summary\n\n${counts}\n\n${lines.map((line) => `- ${line}`).join('\n')}\n`
    : `summary: ${counts}\n${lines.map((line) => `  ${line}`).join('\n')}\n`;
}
