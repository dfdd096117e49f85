import { findsAny } from './encoded-rules.js';
import { REDACTED, type Rewrite } from './token-rules.js';

/**
 * A token cut in two by a line break: a logger or a terminal that wraps at a fixed width, a pasted
 * report. The end of one line and the start of the next are joined and the plain rules run on the join;
 * where they find a token that neither half shows alone, the first line gets the redacted join and the
 * second loses the part that was the token's. Line breaks stay, so line numbers do not move.
 */

// The prefixes of the token families in token-rules.ts: only a join holding one is looked at.
const TOKEN_PREFIX =
  /hf_|gh[pousr]_|github_pat_|AKIA|ASIA|sk-|gl(?:pat|dt|rt|ptt|oas|cbt|imt|agent|soat|ft)-|xox[abposre]-|[rs]k_(?:test|live|prod)_|eyJ|AIza|nvapi-|npm_|pypi-|gsk_/;
// Token characters. Not `=`, `/` or `+`: `HF_TOKEN=` before a token is a name, and a path is not a token.
const TOKEN_CHAR = /[A-Za-z0-9_.~-]/;
// The most of each half looked at: every token family fits, and each break costs a bounded amount.
const MAX_HALF = 256;

function trailingRun(line: string): number {
  let start = line.length;
  while (start > 0 && TOKEN_CHAR.test(line[start - 1] ?? '')) start -= 1;
  return start;
}

function leadingSpace(line: string): number {
  let end = 0;
  while (end < MAX_HALF && (line[end] === ' ' || line[end] === '\t')) end += 1;
  return end;
}

function leadingRun(line: string, from: number): number {
  let end = from;
  while (end < line.length && end - from < MAX_HALF && TOKEN_CHAR.test(line[end] ?? '')) end += 1;
  return end;
}

interface Cut {
  /** Where the token's first part starts in the first line (before a CR), and where that line's text ends. */
  tailStart: number;
  bodyEnd: number;
  /** Where the second part starts in the next line (after indentation) and ends. */
  headStart: number;
  headEnd: number;
  tail: string;
  joined: string;
}

/** The join at the break between two lines, where both sides have token characters and a token prefix. */
function findCut(before: string, after: string): Cut | null {
  const bodyEnd = before.endsWith('\r') ? before.length - 1 : before.length;
  const body = before.slice(Math.max(0, bodyEnd - MAX_HALF), bodyEnd);
  const tailStart = bodyEnd - body.length + trailingRun(body);
  const headStart = leadingSpace(after);
  const headEnd = leadingRun(after, headStart);
  if (tailStart === bodyEnd || headEnd === headStart) return null;
  // A name the next line assigns (`OPENAI_API_KEY="..."`) is not a token's rest: its own rule redacts it.
  if (after[headEnd] === '=' || after[headEnd] === ':') return null;
  const tail = before.slice(tailStart, bodyEnd);
  const joined = tail + after.slice(headStart, headEnd);
  return TOKEN_PREFIX.test(joined) ? { tailStart, bodyEnd, headStart, headEnd, tail, joined } : null;
}

// A token's first part left at a line's end whose rest is not in view (the next line is not in the report:
// evidence keeps the line that matched). Mixed case after the prefix: `hf_hub_download` is a function.
const DANGLING =
  /^(hf_|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|oas|cbt|imt|agent|soat|ft)-|xox[abposre]-|[rs]k_(?:test|live|prod)_|eyJ|AIza|nvapi-|npm_|pypi-|gsk_|sk-)([A-Za-z0-9_.~-]{8,})$/;

/** The line with the first part of a token at its end redacted, the prefix kept: `hf_[REDACTED]`. */
export function redactDanglingToken(line: string, plain: Rewrite): string {
  const end = line.endsWith('\r') ? line.length - 1 : line.length;
  const start = trailingRun(line.slice(0, end));
  const cut = DANGLING.exec(line.slice(start, end));
  const body = cut?.[2] ?? '';
  if (cut === null || !/[a-z]/.test(body) || !/[A-Z]/.test(body) || plain(cut[0]) !== cut[0]) return line;
  return `${line.slice(0, start)}${cut[1] ?? ''}${REDACTED}${line.slice(end)}`;
}

/**
 * Each pair of neighbouring lines with a token cut between them redacted, then a token's first part left
 * at the end of a line; the lines stay as many.
 */
export function redactCutTokens(lines: readonly string[], plain: Rewrite): string[] {
  return joinCutTokens(lines, plain).map((line) => redactDanglingToken(line, plain));
}

function joinCutTokens(lines: readonly string[], plain: Rewrite): string[] {
  const cuts = lines.map((line, i) => (i + 1 < lines.length ? findCut(line, lines[i + 1] ?? '') : null));
  if (
    !findsAny(
      cuts.flatMap((cut) => (cut === null ? [] : [cut.joined])),
      plain,
    )
  )
    return [...lines];
  const out = [...lines];
  cuts.forEach((cut, i) => {
    // A token whole on the first line is the plain rules' to redact; only one that needs both halves is here.
    if (cut === null || plain(cut.tail) !== cut.tail) return;
    const redacted = plain(cut.joined);
    const before = out[i] ?? '';
    const after = out[i + 1] ?? '';
    // A line already rewritten by the cut before it keeps its new text: its head is gone, so skip it.
    if (redacted === cut.joined || before.slice(cut.tailStart, cut.bodyEnd) !== cut.tail) return;
    out[i] = before.slice(0, cut.tailStart) + redacted + before.slice(cut.bodyEnd);
    out[i + 1] = after.slice(0, cut.headStart) + after.slice(cut.headEnd);
  });
  return out;
}
