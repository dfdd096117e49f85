import { cleanLine } from './clean-line.js';
import type { Level, ParsedLine } from './parsed-line.js';
import { PREFIX_GRAMMARS, toLevel, type PrefixGrammar } from './prefix-grammars.js';

const STAGES = ['transport', 'process', 'header', 'process'] as const;
const BY_STAGE = new Map(
  (['transport', 'process', 'header'] as const).map((stage) => [
    stage,
    PREFIX_GRAMMARS.filter((g) => g.stage === stage),
  ]),
);
const REPEATED = / ?\[repeated (\d+)x across cluster\]$/;
const TGI_RANK = /\s+rank=(\d+)$/;

/** Recognises and removes a line's prefixes; never throws, whatever the text. */
export function parseLine(line: string, n: number): ParsedLine {
  const raw = cleanLine(line);
  const parsed: ParsedLine = {
    n,
    raw,
    text: raw,
    process: null,
    level: null,
    ident: null,
    repeat: 1,
    formats: [],
  };
  let rest = raw;
  for (const stage of STAGES) {
    const grammars = BY_STAGE.get(stage) ?? [];
    // Transports and process tags nest (compose around journald, EngineCore around a Ray worker).
    const rounds = stage === 'header' ? 1 : 3;
    for (let round = 0; round < rounds; round++) {
      const grammar = matchFirst(grammars, rest, parsed);
      if (grammar === null) break;
      rest = grammar;
    }
  }
  rest = stripSuffixes(rest, parsed);
  if (rest.startsWith('{"') && rest.includes('"level"')) rest = readJsonLine(rest, parsed);
  parsed.text = rest;
  return parsed;
}

/** Applies the first grammar that matches; returns what is left of the line, or null. */
function matchFirst(grammars: readonly PrefixGrammar[], rest: string, parsed: ParsedLine): string | null {
  const code = rest.charCodeAt(0);
  for (const grammar of grammars) {
    if (grammar.first && !grammar.first(code)) continue;
    const m = grammar.pattern.exec(rest);
    if (m === null || m[0].length === 0) continue;
    parsed.formats.push(grammar.id);
    const level = grammar.level?.(m);
    if (level) parsed.level = level;
    const process = grammar.process?.(m);
    if (process) parsed.process = process;
    const ident = grammar.ident?.(m);
    if (ident) parsed.ident = ident;
    return rest.slice(m[0].length);
  }
  return null;
}

function stripSuffixes(text: string, parsed: ParsedLine): string {
  let rest = text;
  const repeated = REPEATED.exec(rest);
  if (repeated) {
    parsed.repeat = Number(repeated[1]);
    rest = rest.slice(0, repeated.index);
  }
  if (parsed.formats.includes('k9s')) rest = rest.replace(/\s*│\s*$/, '');
  if (parsed.formats.includes('markdown') && rest.endsWith('**')) rest = rest.slice(0, -2);
  if (parsed.formats.includes('tgi-tracing') || parsed.formats.includes('iso-timestamp')) {
    const rank = TGI_RANK.exec(rest);
    if (rank) {
      parsed.process ??= `shard ${rank[1]}`;
      rest = rest.slice(0, rank.index);
    }
  }
  return rest;
}

/** TGI's `--json-output` lines: the message is inside. */
function readJsonLine(text: string, parsed: ParsedLine): string {
  if (text.length > 1 << 16) return text;
  try {
    const value = JSON.parse(text) as { level?: unknown; message?: unknown; fields?: { message?: unknown } };
    const message = value.fields?.message ?? value.message;
    if (typeof message !== 'string') return text;
    parsed.formats.push('json');
    const level: Level | null = typeof value.level === 'string' ? toLevel(value.level) : null;
    if (level) parsed.level = level;
    return message;
  } catch {
    return text;
  }
}
