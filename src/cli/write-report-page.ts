import type { Finding } from '../checks/index.js';
import type { StartFailure } from '../supervision/index.js';
import { writeFileAtomic } from '../system/write-file-atomic.js';
import { timelineOfStart } from '../timeline/timeline-of-start.js';
import { describeFailure } from '../supervision/index.js';
import type { CliIo } from './io.js';
import { renderPage } from './render-page.js';

/**
 * `run`/`watch --report FILE`: the failed start as an incident page, its phases on the timeline at the times
 * the supervisor measured from `startedAtMs`; the file is replaced whole, never left half written.
 */
export async function writeReportPage(
  path: string,
  failure: StartFailure,
  startedAtMs: number,
  redact: boolean,
  io: CliIo,
  findings: Finding[] | null = null,
): Promise<void> {
  const page = renderFailurePage(failure, startedAtMs, redact, findings);
  try {
    await writeFileAtomic(path, page, { overwrite: true });
    io.stderr.write(`vigil: wrote the incident page to ${path}\n`);
  } catch (error) {
    io.stderr.write(`vigil: could not write the incident page to ${path}: ${String(error)}\n`);
  }
}

/** A failed start as an incident page: its phases on the timeline at the times measured from `startedAtMs`. */
export function renderFailurePage(
  failure: StartFailure,
  startedAtMs: number,
  redact: boolean,
  findings: Finding[] | null = null,
): string {
  const timeline = timelineOfStart({
    startedAtMs,
    ranMs: failure.ranMs,
    progress: failure.progress,
    failed: true,
    causeProcesses: failure.diagnosis.rootCause?.processes ?? [],
  });
  return renderPage([{ label: describeFailure(failure), diagnosis: failure.diagnosis, timeline }], {
    redact,
    findings,
  });
}
