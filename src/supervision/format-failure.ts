import { createColors } from 'picocolors';
import { describeFacts, formatDuration } from '../progress/index.js';
import type { Diagnosis } from '../types/diagnosis.js';
import type { StartFailure } from './supervise-server.js';

export type ReportFormat = 'text' | 'json' | 'markdown';

/** Renders a diagnosis exactly as `vigil diagnose` does (the reporting module, injected). */
export type RenderDiagnosis = (
  diagnosis: Diagnosis,
  options: { format: ReportFormat; color: boolean },
) => string;

/** `exited with status 1`, `was killed by SIGKILL`, `is still running`. */
export function describeExit(failure: StartFailure): string {
  const exit = failure.exit;
  if (exit === null) return failure.endedBy ?? 'is still running';
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  return `exited with status ${exit.code ?? '?'}`;
}

/** One sentence: what happened, when, and in which phase. */
export function describeFailure(failure: StartFailure, subject = 'the server'): string {
  const ran = formatDuration(failure.ranMs);
  const facts = describeFacts(failure.progress);
  const where =
    failure.phase === null
      ? 'before its first phase'
      : `in phase "${failure.phase.label}"${facts.length === 0 ? '' : ` (${facts.join(', ')})`}`;
  switch (failure.reason) {
    case 'exit':
      return failure.ready
        ? `${subject} crashed after it was ready: it ${describeExit(failure)} after ${ran}`
        : `${subject} failed to start: it ${describeExit(failure)} after ${ran}, ${where}`;
    case 'timeout':
      return `${subject} was not ready after ${ran}: it stalled ${where}${
        failure.phaseMs === null ? '' : ` (no further phase for ${formatDuration(failure.phaseMs)})`
      }`;
    case 'hang':
      return `${subject} hit a fatal error and did not exit: it hangs ${where} after ${ran}`;
  }
}

export interface FailureReportOptions {
  format: ReportFormat;
  color: boolean;
  render: RenderDiagnosis;
  subject?: string;
  /** Extra lines for the text header, e.g. a restart loop. */
  notes?: string[];
  /** Applied to the server's last lines, which are raw output (the diagnosis is redacted by `render`). */
  redact?: (line: string) => string;
}

/** The crash report: the same report as `vigil diagnose`, headed by what the supervisor saw. */
export function formatFailureReport(failure: StartFailure, options: FailureReportOptions): string {
  const summary = describeFailure(failure, options.subject);
  const notes = options.notes ?? [];
  const diagnosis = failure.diagnosis;
  if (options.format === 'json') {
    const report = JSON.parse(options.render(diagnosis, { format: 'json', color: false })) as Record<
      string,
      unknown
    >;
    report.supervision = {
      summary,
      reason: failure.reason,
      exit: failure.exit,
      ready: failure.ready,
      ranMs: Math.round(failure.ranMs),
      phase: failure.phase === null ? null : { id: failure.phase.id, label: failure.phase.label },
      engine: failure.progress.engine,
      facts: failure.progress.facts,
      notes,
    };
    return `${JSON.stringify(report, null, 2)}\n`;
  }
  const body = options.render(diagnosis, { format: options.format, color: options.color });
  const withTail =
    diagnosis.verdict === 'failure' || failure.lastLines.length === 0
      ? body
      : `${body.trimEnd()}\n\nThe last lines the server printed:\n${failure.lastLines.map((line) => `  ${options.redact?.(line) ?? line}`).join('\n')}\n`;
  if (options.format === 'markdown') {
    const header = [`> **vigil:** ${summary}.`, ...notes.map((note) => `> ${note}`)].join('\n');
    return `${header}\n\n${withTail.endsWith('\n') ? withTail : `${withTail}\n`}`;
  }
  const c = createColors(options.color);
  const header = [c.bold(c.red(`vigil: ${summary}.`)), ...notes.map((note) => `vigil: ${note}`)].join('\n');
  return `${header}\n${withTail.endsWith('\n') ? withTail : `${withTail}\n`}`;
}
