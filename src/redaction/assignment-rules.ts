import { REDACTED, type Rewrite } from './token-rules.js';

/**
 * Secrets recognised by the name they are assigned to: `HF_TOKEN=...`, `--api-key X`, `--api-key=X`,
 * `['--api-key', 'X']`, `{'api_key': 'X'}`, `Namespace(api_key='X')`, `api_key: Some("X")`, `password = X`.
 *
 * A scanner finds `name` + separator with a linear regex, decides on the name in code, and only then reads
 * the value at that position. A name that is not secret is stepped over without consuming its value, so
 * `Environment=HF_TOKEN=x` still reaches `HF_TOKEN`.
 */

// Upper-case names are environment variables: any `*_TOKEN`, `*_SECRET`, `*_PASSWORD`, `*_KEY`.
const SECRET_ENV_NAME = /(?:^|_)(?:TOKEN|SECRET|PASSWORD|PASSWD|KEY|APIKEY|CREDENTIALS?)$/;
// Lower-case names are arguments and config keys, where `eos_token`, `max_tokens` and `tokenizer` abound:
// only names that mean a credential count.
const SECRET_ARG_NAME =
  /(?:^|_)(?:api_?key|secret|secret_key|password|passwd|private_key|access_key|client_secret|credentials?)$|(?:^|_)(?:hf|hub|hugging_face_hub|huggingface|auth|access|api|bearer|refresh|id|github|gh|gitlab|session|oauth|use_auth|slack|bot|wandb|openai)_token$|^token$/;

function isSecretName(rawName: string): boolean {
  const name = rawName.slice(rawName.lastIndexOf('.') + 1);
  if (/^[A-Z][A-Z0-9_]*$/.test(name)) return SECRET_ENV_NAME.test(name);
  const snake = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replaceAll('-', '_');
  return SECRET_ARG_NAME.test(snake);
}

/** Values that hold no secret: leave them readable. */
const NOT_SECRET = new Set([
  '',
  'none',
  'null',
  'nil',
  'undefined',
  'true',
  'false',
  '***',
  REDACTED.toLowerCase(),
]);
/** Documentation placeholders: `HF_TOKEN=...`, `hf_...`, `sk-xxxx`, `***`. */
const PLACEHOLDER = /^(?:[a-z]+[_-])?(?:\.\.\.|\u2026|[xX*]{3,})$/;
/** Words that follow a flag in prose ("use --hf-token or set HF_TOKEN"), not a value. */
const PROSE_WORDS = new Set(
  'a an and argument as at be but by can flag for from if in instead is it must not of on option or should the to was when with'.split(
    ' ',
  ),
);

type Separator = 'equals' | 'colon' | 'space';

interface Span {
  start: number;
  end: number;
}

// A backtick ends a value too: `HF_TOKEN=...` in Markdown.
const UNQUOTED = /[^\s'"`,;)}\][&]+/y;
const QUOTED_LIST = /\[[ \t]*(?:'[^'\n]*'|"[^"\n]*")(?:[ \t]*,[ \t]*(?:'[^'\n]*'|"[^"\n]*"))*[ \t]*\]/y;
const QUOTED_ITEM = /'([^'\n]*)'|"([^"\n]*)"/g;

/** Whether text[start, end) holds no secret. Constant time: long values are never words or placeholders. */
function keepsValue(text: string, start: number, end: number, separator: Separator): boolean {
  const first = text[start];
  if (end === start || first === '$' || first === '<') return true;
  const short = end - start <= 20 ? text.slice(start, end) : null;
  if (short !== null && (NOT_SECRET.has(short.toLowerCase()) || PLACEHOLDER.test(short))) return true;
  if (separator === 'space') return first === '-' || (short !== null && PROSE_WORDS.has(short.toLowerCase()));
  // `token: expired` is prose and SGLang's `#token: 85` a count; a credential after a colon has letters and
  // digits, or is long.
  if (separator === 'colon')
    return short !== null && short.length < 20 && !(/[0-9]/.test(short) && /[A-Za-z]/.test(short));
  return false;
}

/** Reads unquoted values; remembers the last run, since every start inside a run ends where it ends. */
class UnquotedRuns {
  private start = -1;
  private end = -1;
  constructor(private readonly text: string) {}
  endOf(at: number): number {
    if (at >= this.start && at < this.end) return this.end;
    UNQUOTED.lastIndex = at;
    const run = UNQUOTED.exec(this.text);
    this.start = at;
    this.end = run === null ? at : at + run[0].length;
    return this.end;
  }
}

/** The parts of the value at `pos` to replace, or null where no value follows. */
function readValue(text: string, pos: number, separator: Separator, runs: UnquotedRuns): Span[] | null {
  let at = text.startsWith('Some(', pos) ? pos + 5 : pos;
  const quote = text[at];
  if (quote === "'" || quote === '"') {
    const close = text.indexOf(quote, at + 1);
    if (close !== -1 && !text.slice(at + 1, close).includes('\n')) {
      return keepsValue(text, at + 1, close, 'equals') ? [] : [{ start: at + 1, end: close }];
    }
    at += 1; // an unclosed quote, e.g. a line cut short: the value runs to the next delimiter
  } else if (quote === '[') {
    QUOTED_LIST.lastIndex = at;
    const list = QUOTED_LIST.exec(text);
    if (list === null) return null;
    const spans: Span[] = [];
    for (const item of list[0].matchAll(QUOTED_ITEM)) {
      const start = at + (item.index ?? 0) + 1;
      const end = start + (item[1] ?? item[2] ?? '').length;
      if (!keepsValue(text, start, end, 'equals')) spans.push({ start, end });
    }
    return spans;
  }
  const end = runs.endOf(at);
  if (end === at) return null;
  return keepsValue(text, at, end, separator) ? [] : [{ start: at, end }];
}

/** Replaces each span, merging those that overlap or touch, with one marker. */
function replaceSpans(text: string, spans: Span[]): string {
  if (spans.length === 0) return text;
  spans.sort((a, b) => a.start - b.start);
  let out = '';
  let from = 0;
  for (const span of spans) {
    if (span.start >= from) out += text.slice(from, span.start) + REDACTED;
    from = Math.max(from, span.end);
  }
  return out + text.slice(from);
}

/**
 * The values after secret names that `finder` finds. Scanning goes on inside each value, so that a secret
 * name in a value (`--token api_key: 'x'`, `Environment=HF_TOKEN=x`) is found too; overlaps merge later.
 * `finder` must be global and capture the name in group `name` and the separator in group `sep`.
 */
function findAssignments(text: string, finder: RegExp, separatorOf: (sep: string) => Separator): Span[] {
  const spans: Span[] = [];
  const runs = new UnquotedRuns(text);
  finder.lastIndex = 0;
  for (let match = finder.exec(text); match !== null; match = finder.exec(text)) {
    const sep = match.groups?.sep ?? '';
    const valueStart = match.index + match[0].length;
    if (isSecretName(match.groups?.name ?? '')) {
      spans.push(...(readValue(text, valueStart, separatorOf(sep), runs) ?? []));
    }
    finder.lastIndex = Math.max(valueStart - sep.length, match.index + 1);
  }
  return spans;
}

// `name=`, `name: `, `'name': `, `"name" = `; the lookbehind lets a name start only at the beginning of its run.
const NAMED_VALUE = /(?<![\w.-])(["']?)(?<name>[A-Za-z_][\w.-]*)\1(?<sep>[ \t]*[:=][ \t]*)/g;
// `--name=`, `--name value`, and list forms `'--name', '`.
const FLAG_VALUE = /(?<![\w-])--(?<name>[A-Za-z][\w-]*)(?<sep>=|["']?[ \t]*,[ \t]*["']?|[ \t]+)/g;

/** One rewrite for all assignment forms, so that one form's value cannot hide another's name. */
export const redactAssignments: Rewrite = (text) =>
  replaceSpans(text, [
    ...findAssignments(text, FLAG_VALUE, (sep) => (sep === '=' ? 'equals' : 'space')),
    ...findAssignments(text, NAMED_VALUE, (sep) => (sep.includes('=') ? 'equals' : 'colon')),
  ]);
