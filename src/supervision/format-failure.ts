import { createColors } from 'picocolors';
import { describeFacts, formatDuration } from '../progress/index.js';
import type { Diagnosis } from '../types/diagnosis.js';
import { fence } from '../reporting/markdown-text.js';
import type { StallNotice, StartFailure } from './monitor/types.js';

export type ReportFormat = 'text' | 'json' | 'markdown';

/** Renders a diagnosis exactly as `vigil diagnose` does (the reporting module, injected). */
export type RenderDiagnosis = (
  diagnosis: Diagnosis,
  options: { format: ReportFormat; color: boolean },
) => string;

/** `exited with status 1`, `was killed by SIGKILL (the kernel's OOM killer ...)`, `is still running`. */
export function describeExit(failure: StartFailure): string {
  const exit = failure.exit;
  if (exit === null) return withKiller(failure.endedBy ?? 'is still running', failure);
  if (exit.signal !== null) return withKiller(`was killed by ${exit.signal}`, failure);
  // A container runtime's 137 is a SIGKILL in other words.
  const killed = failure.killer ? ` (killed, most likely ${failure.killer.killer})` : '';
  return `exited with status ${exit.code ?? '?'}${killed}`;
}

function withKiller(text: string, failure: StartFailure): string {
  if (failure.killer) return `${text} (most likely ${failure.killer.killer})`;
  if (failure.killNote !== undefined) return `${text} from outside vigil (${failure.killNote})`;
  return text;
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
    case 'dead':
      return `${subject}'s engine died ${failure.ready ? 'while serving' : where} after ${ran}, though its process still runs`;
    case 'stall':
      return `${subject} stalled ${where}: nothing advanced it for ${formatDuration(failure.stall?.quietMs ?? failure.phaseMs ?? 0)} (--stall-timeout)`;
  }
}

/** A stall warning: the phase, how long nothing advanced it, against what, and the last line. */
export function describeStall(stall: StallNotice): string {
  const where = stall.phase === null ? 'before its first phase' : `in phase "${stall.phase.label}"`;
  const bound =
    stall.boundFrom === 'history'
      ? `earlier starts allow ${formatDuration(stall.boundMs)}`
      : stall.boundFrom === 'flag'
        ? `--stall-after ${formatDuration(stall.boundMs)}`
        : `the engine's bound is ${formatDuration(stall.boundMs)}`;
  const last = stall.lastLine === null ? 'it printed nothing yet' : `its last line: ${stall.lastLine.trim()}`;
  return `stalled ${where}: nothing advanced it for ${formatDuration(stall.quietMs)} (${bound}); still waiting (--stall-timeout stops it). ${last}`;
}

/** The lines a report adds for what the supervisor saw beyond the diagnosis: the killer's line, a death. */
function supervisionLines(failure: StartFailure): string[] {
  const lines: string[] = [];
  if (failure.killer?.evidence) lines.push(failure.killer.evidence);
  if (failure.deathLine !== undefined) lines.push(`the engine said: ${failure.deathLine.trim()}`);
  if (failure.stall?.lastLine != null) lines.push(`its last line: ${failure.stall.lastLine.trim()}`);
  return lines;
}

export interface FailureReportOptions {
  format: ReportFormat;
  color: boolean;
  render: RenderDiagnosis;
  subject?: string;
  /** Extra lines for the text header, e.g. a restart loop. */
  notes?: string[];
  /**
   * Applied to the server's last lines, which are raw output (the diagnosis is redacted by `render`): all
   * at once, so a token cut between two lines is seen.
   */
  redactLines?: (lines: readonly string[]) => string[];
}

/** The crash report: the same report as `vigil diagnose`, headed by what the supervisor saw. */
export function formatFailureReport(failure: StartFailure, options: FailureReportOptions): string {
  const summary = describeFailure(failure, options.subject);
  const notes = [...supervisionLines(failure), ...(options.notes ?? [])];
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
      killer: failure.killer ?? null,
      ready: failure.ready,
      ranMs: Math.round(failure.ranMs),
      phase: failure.phase === null ? null : { id: failure.phase.id, label: failure.phase.label },
      engine: failure.progress.engine,
      facts: failure.progress.facts,
      notes,
    };
    return `${JSON.stringify(report, null, 2)}\n`;
  }
  // A start that timed out, stalled or was killed may hold no error line: saying "no failure found" under
  // the failure would be wrong, so the report says what the log holds instead.
  const body =
    diagnosis.verdict === 'failure'
      ? options.render(diagnosis, { format: options.format, color: options.color })
      : `The log holds no error line (${diagnosis.input.lines} lines read${diagnosis.engine ? `, ${diagnosis.engine}` : ''}).\n`;
  const withTail =
    diagnosis.verdict === 'failure' || failure.lastLines.length === 0
      ? body
      : `${body.trimEnd()}\n\nThe last lines the server printed:\n${formatLastLines(options.redactLines?.(failure.lastLines) ?? failure.lastLines, options.format)}\n`;
  if (options.format === 'markdown') {
    const header = [`> **vigil:** ${summary}.`, ...notes.map((note) => `> ${note}`)].join('\n');
    return `${header}\n\n${withTail.endsWith('\n') ? withTail : `${withTail}\n`}`;
  }
  const c = createColors(options.color);
  const header = [c.bold(c.red(`vigil: ${summary}.`)), ...notes.map((note) => `vigil: ${note}`)].join('\n');
  return `${header}\n${withTail.endsWith('\n') ? withTail : `${withTail}\n`}`;
}

/** In Markdown the server's lines go in a fence (they may hold backticks or HTML); in text, indented. */
function formatLastLines(lines: readonly string[], format: ReportFormat): string {
  return format === 'markdown' ? fence(lines.join('\n')) : lines.map((line) => `  ${line}`).join('\n');
}
