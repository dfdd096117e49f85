import { describeAllClear } from './describe-health.js';
import type { Diagnosis } from '../types/diagnosis.js';
import { describeProcesses } from './describe-processes.js';
import type { Paint } from './paint.js';
import { wrapCommand } from './wrap-command.js';

const LABEL = 11;
/** A terminal's width when none is known (a pipe, a file): the classic 80 columns. */
export const DEFAULT_WIDTH = 80;
/** Below this, wrapping makes more lines than it saves. */
const MIN_WIDTH = 40;

export interface TextOptions {
  /** Columns to fit: the terminal's (COLUMNS), else 80. */
  width?: number;
  /** Only the verdict, the fix and its check (`--brief`). */
  brief?: boolean;
}

/**
 * The terminal report, what to do first: the verdict and the fix (the lines an operator copies) in the
 * first lines of an 80x24 screen, then where, meaning, evidence, noise. Words wrap to the width; commands
 * break between words with ` \` (pasted, they are still one command); evidence lines are cut with a mark.
 * Pure.
 */
export function renderText(d: Diagnosis, paint: Paint, options: TextOptions = {}): string {
  const width = Math.max(MIN_WIDTH, options.width ?? DEFAULT_WIDTH);
  const out: string[] = [];
  const row = (label: string, value: string): void => {
    out.push(`${paint.dim(label.padEnd(LABEL))} ${value}`);
  };
  const prose = (label: string, text: string): void => row(label, wrap(text, LABEL + 1, width));
  const rc = d.rootCause;
  if (d.verdict === 'no-failure') {
    const clear = describeAllClear(d);
    const mark = clear.healthy ? paint.green(`✔ ${clear.headline}`) : paint.yellow(`– ${clear.headline}`);
    out.push(`${mark} in ${d.input.lines} lines${d.engine ? ` (${d.engine})` : ''}`);
    if (clear.hint !== null) out.push(wrap(clear.hint, 2, width, 2).replace(/^/, '  '));
    if (d.input.source !== undefined) out.push(paint.dim(`read: ${d.input.source}`));
    if (d.noiseSuppressed > 0)
      out.push(paint.dim(`${d.noiseSuppressed} alarming but harmless lines ignored`));
    // "No failure" in a truncated .gz is only about the part that was read: say so beside it.
    for (const warning of d.warnings) out.push(paint.yellow(`warning: ${warning}`));
    return `${out.join('\n')}\n`;
  }
  const headline = rc
    ? `${rc.exception ? `${rc.exception}: ` : ''}${firstLine(rc.message)}`
    : 'the start failed';
  if (d.current !== undefined) {
    out.push(
      `${paint.green(`● ${d.service?.unit ?? 'the unit'} is running since ${d.current.since}`)} (its latest start); the failure below is an earlier start's`,
      '',
    );
  }
  const verdict = d.current === undefined ? '✖ failure' : '✖ earlier failure';
  // The message in at most two lines here: all of it is in the evidence below.
  // The rest is taken from the wrapped words, not the headline's characters: wrapping folds runs of spaces.
  const [first = '', ...rest] = wrap(headline, 2, width, verdict.length + 1).split(`\n  `);
  out.push(`${paint.red(paint.bold(verdict))} ${paint.bold(first)}`);
  if (rest.length > 0) out.push(`  ${paint.bold(clip(rest.join(' '), width - 2))}`);
  if (d.signature) out.push(...titleLines(d.signature, paint, width));
  else if (d.general)
    out.push(`  ${d.general.category} ${paint.dim('[general explanation, no known signature]')}`);
  if (d.signature) {
    row('fix', formatFix(d.signature.fix, paint, width));
    if (d.signature.tryNow) row('try now', wrapCommand(d.signature.tryNow, LABEL + 1, width));
    if (d.signature.verify) row('verify', wrapCommand(d.signature.verify, LABEL + 1, width));
  } else if (rc) {
    prose('fix', "no known signature: search the engine's issues for the root-cause message above");
    if (d.general) row('search', d.general.searchUrl);
  }
  if (options.brief === true) return `${out.join('\n')}\n`;
  out.push('');
  if (rc) {
    const who = describeProcesses(rc.processes, d.processes);
    row('where', `${who ? `${who}, ` : ''}line ${rc.lineNumber}`);
    if (rc.raiseSite) row('raised at', formatSite(rc.raiseSite));
    if (rc.crashSite) row('crashed in', formatSite(rc.crashSite));
  }
  if (d.service) {
    const s = d.service;
    const loop = s.restartLoop ? paint.red(', restart loop') : '';
    prose(
      'service',
      `${s.unit ?? 'unit'}: ${s.starts} starts, ${s.failedStarts} failed${loop}${s.lastExit ? `; last exit ${s.lastExit}` : ''}`,
    );
  }
  if (d.signature) {
    prose('meaning', d.signature.explanation);
    if (d.signature.alternative) prose('or', d.signature.alternative);
  } else if (rc && d.general) {
    prose('meaning', `(general) ${d.general.meaning}`);
  }
  if (d.evidence.length > 0) {
    out.push('', paint.dim('evidence'));
    const digits = String(d.evidence.at(-1)?.lineNumber ?? 0).length;
    for (const e of d.evidence)
      out.push(`  ${paint.dim(String(e.lineNumber).padStart(digits))}  ${clip(e.text, width - digits - 4)}`);
  }
  if (d.lastWords !== undefined) {
    out.push('', paint.dim('its last lines before it died'));
    for (const line of d.lastWords) out.push(`  ${clip(line, width - 2)}`);
  }
  if (d.symptoms.length > 0) {
    out.push('', paint.dim('pointed elsewhere (not the cause)'));
    for (const s of d.symptoms.slice(0, 4)) {
      const who = describeProcesses(s.processes, d.processes);
      const suffix = who ? ` (${who})` : '';
      const text = `${s.exception ? `${s.exception}: ` : ''}${firstLine(s.message)}`;
      out.push(`  ${clip(text, Math.max(20, width - 2 - suffix.length))}${who ? paint.dim(suffix) : ''}`);
    }
  }
  const tail: string[] = [];
  if (d.groups.length > 1) tail.push(`${d.groups.length} distinct errors`);
  if (d.noiseSuppressed > 0) tail.push(`${d.noiseSuppressed} harmless lines suppressed`);
  tail.push(
    `${d.input.lines} lines read${d.input.partial === true ? ' (partial: the stream broke off)' : ''}`,
  );
  out.push('', paint.dim(tail.join(', ')));
  if (d.input.source !== undefined) out.push(paint.dim(`read: ${d.input.source}`));
  for (const warning of d.warnings) out.push(paint.yellow(`warning: ${warning}`));
  return `${out.join('\n')}\n`;
}

export function formatSite(site: { file: string; line: number; function: string }): string {
  return `${shortenPath(site.file)}:${site.line} in ${site.function}`;
}

/** From site-packages on: the part of a path that tells which package. */
export function shortenPath(file: string): string {
  const m = /(?:site-packages|dist-packages)\/(.+)$/.exec(file);
  return m?.[1] ?? file;
}

export function firstLine(text: string): string {
  const i = text.indexOf('\n');
  return i === -1 ? text : text.slice(0, i);
}

/** At most `max` columns: cut at the last space before the edge (a word is never split) and marked with …. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

/**
 * Words filled into lines of `width` columns: the first has `firstUsed` columns taken already (a label),
 * the others are indented by `indent`. A word longer than a line (a URL, a path) keeps its own line, unbroken.
 */
export function wrap(text: string, indent: number, width: number, firstUsed = indent): string {
  const words = text.split(/\s+/).filter((word) => word !== '');
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    const room = width - (lines.length === 0 ? firstUsed : indent);
    if (current.length + word.length + 1 > room && current) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) lines.push(current);
  return lines.join(`\n${' '.repeat(indent)}`);
}

/** The signature's title, wrapped, and its `[category, id]` kept whole: on the last line if it fits. */
function titleLines(
  signature: { title: string; category: string; id: string },
  paint: Paint,
  width: number,
): string[] {
  const lines = `  ${wrap(signature.title, 2, width)}`.split('\n');
  const tag = `[${signature.category}, ${signature.id}]`;
  const last = lines.length - 1;
  if ([...(lines[last] ?? '')].length + 1 + tag.length <= width)
    lines[last] = `${lines[last]} ${paint.dim(tag)}`;
  else lines.push(`  ${paint.dim(tag)}`);
  return lines;
}

/**
 * The fix, each line under the label: words wrapped, a command broken between its words with a shell's
 * line continuation (` \`), so it fits and still pastes as one command.
 */
function formatFix(fix: string, paint: Paint, width: number): string {
  return fix
    .split('\n')
    .map((line) =>
      paint.bold(isCommand(line) ? wrapCommand(line, LABEL + 1, width) : wrap(line, LABEL + 1, width)),
    )
    .join(`\n${' '.repeat(LABEL + 1)}`);
}

/** A line to copy and run: it starts with a program or a Dockerfile instruction, not with a sentence. */
function isCommand(line: string): boolean {
  return /^(?:RUN |#|ssh |sudo |pip |uv |conda |docker |podman |kubectl |kill |ss |mount |journalctl |systemctl |coredumpctl |cat \/|\/)/.test(
    line,
  );
}
