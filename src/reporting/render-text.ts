import type { Diagnosis } from '../types/diagnosis.js';
import { describeProcesses } from './describe-processes.js';
import type { Paint } from './paint.js';

const LABEL = 11;

/** The terminal report: verdict, root cause, where, meaning, fix, evidence, noise. Pure. */
export function renderText(d: Diagnosis, paint: Paint): string {
  const out: string[] = [];
  const row = (label: string, value: string): void => {
    out.push(`${paint.dim(label.padEnd(LABEL))} ${value}`);
  };
  const rc = d.rootCause;
  if (d.verdict === 'no-failure') {
    out.push(
      `${paint.green('✔ no failure found')} in ${d.input.lines} lines${d.engine ? ` (${d.engine})` : ''}`,
    );
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
  out.push(
    `${paint.red(paint.bold(d.current === undefined ? '✖ failure' : '✖ earlier failure'))} ${paint.bold(headline)}`,
  );
  if (d.signature)
    out.push(`  ${d.signature.title} ${paint.dim(`[${d.signature.category}, ${d.signature.id}]`)}`);
  else if (d.general)
    out.push(`  ${d.general.category} ${paint.dim('[general explanation, no known signature]')}`);
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
    row(
      'service',
      `${s.unit ?? 'unit'}: ${s.starts} starts, ${s.failedStarts} failed${loop}${s.lastExit ? `; last exit ${s.lastExit}` : ''}`,
    );
  }
  if (d.signature) {
    row('meaning', wrap(d.signature.explanation, LABEL + 1));
    row('fix', paint.bold(d.signature.fix));
    if (d.signature.verify) row('verify', d.signature.verify);
    if (d.signature.alternative) row('or', wrap(d.signature.alternative, LABEL + 1));
  } else if (rc) {
    if (d.general) row('meaning', wrap(`(general) ${d.general.meaning}`, LABEL + 1));
    row('fix', "no known signature: search the engine's issues for the root-cause message above");
    if (d.general) row('search', d.general.searchUrl);
  }
  if (d.evidence.length > 0) {
    out.push('', paint.dim('evidence'));
    const width = String(d.evidence.at(-1)?.lineNumber ?? 0).length;
    for (const e of d.evidence)
      out.push(`  ${paint.dim(String(e.lineNumber).padStart(width))}  ${clip(e.text, 220)}`);
  }
  if (d.symptoms.length > 0) {
    out.push('', paint.dim('pointed elsewhere (not the cause)'));
    for (const s of d.symptoms.slice(0, 4)) {
      const who = describeProcesses(s.processes, d.processes);
      out.push(
        `  ${clip(`${s.exception ? `${s.exception}: ` : ''}${firstLine(s.message)}`, 160)}${who ? paint.dim(` (${who})`) : ''}`,
      );
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

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function wrap(text: string, indent: number, width = 100): string {
  const words = text.split(/\s+/);
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    if (current.length + word.length + 1 > width - indent && current) {
      lines.push(current);
      current = word;
    } else current = current ? `${current} ${word}` : word;
  }
  if (current) lines.push(current);
  return lines.join(`\n${' '.repeat(indent)}`);
}
