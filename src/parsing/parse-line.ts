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
  if (raw.startsWith('{"') && ENVELOPE.test(raw)) {
    const inner = readEnvelope(raw, n);
    if (inner !== null) return inner;
  }
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
  if (parsed.level !== null) rest = stripRelayed(rest, parsed);
  rest = stripSuffixes(rest, parsed);
  if (rest.startsWith('{"') && JSON_LEVEL.test(rest)) rest = readJsonLine(rest, parsed);
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

/**
 * A program's name before a line it relays through its own logger (`... - INFO - vLLM: ERROR 07-13 ...] `);
 * not an exception's class (`RuntimeError: [15:36:55] file.cc:73: ...` is its message).
 */
const RELAY =
  /^(?![\w.]*(?:Error|Exception|Warning|Exit|Interrupt|Fault):)[A-Za-z][\w.-]{0,23}: (?=[A-Z[(0-9])/;

/**
 * A line a program relays from the server it runs, through its own logger: after the relay's header and the
 * server's name, the server's own header with a level, which is the line's (the relay logs all at INFO).
 */
function stripRelayed(text: string, parsed: ParsedLine): string {
  const relay = RELAY.exec(text);
  if (relay === null) return text;
  const { level } = parsed;
  const formats = parsed.formats.length;
  parsed.level = null;
  const rest = matchFirst(BY_STAGE.get('header') ?? [], text.slice(relay[0].length), parsed);
  if (rest !== null && parsed.level !== null) return rest;
  parsed.level = level;
  parsed.formats.length = formats;
  return text;
}

function stripSuffixes(text: string, parsed: ParsedLine): string {
  let rest = text;
  // Anchored at the end, but searched from the start: asked only of lines that end so.
  const repeated = rest.endsWith('across cluster]') ? REPEATED.exec(rest) : null;
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

/**
 * A line a log store kept whole inside its own JSON record: docker's json-file driver (`{"log":"...\\n",
 * "stream":"stderr"}`), `journalctl -o json` (`MESSAGE`), Google Cloud Logging's export (`textPayload`). The
 * line inside is read as any line is; the record's own level is the stream's (journald gives every line of
 * stdout priority 6, GKE every line of stderr ERROR), so only the line's own counts.
 */
const ENVELOPE = /"(?:log|MESSAGE|textPayload)"\s*:\s*"/;

interface EnvelopeRecord {
  log?: unknown;
  MESSAGE?: unknown;
  textPayload?: unknown;
}

function readEnvelope(raw: string, n: number): ParsedLine | null {
  if (raw.length > 1 << 16) return null;
  let record: EnvelopeRecord;
  try {
    record = JSON.parse(raw) as EnvelopeRecord;
  } catch {
    return null;
  }
  const line = firstString(record.MESSAGE, record.textPayload, record.log);
  if (line === null) return null;
  const inner = parseLine(line.replace(/\r?\n$/, ''), n);
  // What is shown and quoted is the line as the server wrote it, not the store's record around it.
  return { ...inner, formats: ['json-envelope', ...inner.formats] };
}

/** A JSON record with a level: TGI's `--json-output`, vLLM's and any Python JSON logging formatter's. */
const JSON_LEVEL = /"(?:level|levelname|severity)"\s*:/;

interface JsonRecord {
  level?: unknown;
  levelname?: unknown;
  severity?: unknown;
  message?: unknown;
  msg?: unknown;
  fields?: { message?: unknown };
  processName?: unknown;
  process_name?: unknown;
  exc_info?: unknown;
  exc_text?: unknown;
  stack_info?: unknown;
}

const firstString = (...values: unknown[]): string | null =>
  (values.find((v) => typeof v === 'string' && v !== '') as string | undefined) ?? null;

/**
 * A JSON log record: the message is inside, with its level, the process that wrote it, and the traceback
 * of `exc_info` (a multi-line message, which the diagnosis reads line by line).
 */
function readJsonLine(text: string, parsed: ParsedLine): string {
  if (text.length > 1 << 16) return text;
  try {
    const value = JSON.parse(text) as JsonRecord;
    const message = firstString(value.fields?.message, value.message, value.msg);
    if (message === null) return text;
    parsed.formats.push('json');
    const level: Level | null = toLevel(
      firstString(value.level, value.levelname, value.severity) ?? undefined,
    );
    if (level) parsed.level = level;
    const process = firstString(value.processName, value.process_name);
    if (process !== null && process !== 'MainProcess') parsed.process ??= process;
    const traceback = firstString(value.exc_info, value.exc_text, value.stack_info);
    return traceback === null ? message : `${message}\n${traceback.replace(/\n$/, '')}`;
  } catch {
    return text;
  }
}
