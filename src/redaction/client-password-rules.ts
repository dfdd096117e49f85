import { REDACTED, type Rewrite } from './token-rules.js';

/**
 * Passwords given to a client by a short flag, whose name says nothing: `sshpass -p PASS`, `mysql -pPASS`,
 * `redis-cli -a PASS`, `curl -u user:PASS`. The program decides what the flag means (`-p` is a port to
 * many others), so a flag counts only inside a command that one of these programs starts, up to the end of
 * the line or a command separator.
 */
interface ClientPasswordFlag {
  /** The program names (the last part of a path) whose command line carries the flag. */
  programs: readonly string[];
  flags: readonly string[];
  /** `-pPASS`: the value joined to the flag. */
  joined: boolean;
  /** `-p PASS`: the value in the next word. (`mysql -p PASS` prompts, and PASS is the database.) */
  separate: boolean;
  /** `user:PASS`: only what follows the first colon is secret. */
  afterColon: boolean;
}

const MYSQL_CLIENTS = ['mysql', 'mysqldump', 'mysqladmin', 'mysqlimport', 'mysqlshow', 'mysqlcheck'];
const MARIADB_CLIENTS = ['mariadb', 'mariadb-dump', 'mariadb-admin', 'mariadb-import', 'mariadb-check'];

export const CLIENT_PASSWORD_FLAGS: readonly ClientPasswordFlag[] = [
  { programs: ['sshpass'], flags: ['-p'], joined: true, separate: true, afterColon: false },
  {
    programs: [...MYSQL_CLIENTS, ...MARIADB_CLIENTS],
    flags: ['-p'],
    joined: true,
    separate: false,
    afterColon: false,
  },
  { programs: ['redis-cli'], flags: ['-a'], joined: false, separate: true, afterColon: false },
  { programs: ['curl'], flags: ['-u', '--user'], joined: false, separate: true, afterColon: true },
];

const BY_PROGRAM = new Map(CLIENT_PASSWORD_FLAGS.flatMap((entry) => entry.programs.map((p) => [p, entry])));
const ANY_PROGRAM = new RegExp([...BY_PROGRAM.keys()].map((name) => name.replace(/[-]/g, '\\-')).join('|'));
const WORD = /\S+/g;
// Quotes, brackets and commas around a word in list forms: `['mysql', '-pPASS']`.
const OPENING = new Set(['[', '(', "'", '"']);
const CLOSING = new Set([']', ')', "'", '"', ',', ';', '|', '&']);
// A word that ends a command: `db;`, `x|`, `x&&`.
const ENDS_COMMAND = /[;|&]$/;

interface Span {
  start: number;
  end: number;
}

/** The word at `start` without its wrapping, and where that part starts. */
interface Word {
  text: string;
  start: number;
}

function unwrap(word: string, start: number): Word {
  let from = 0;
  let to = word.length;
  while (from < to && OPENING.has(word[from] ?? '')) from += 1;
  while (to > from && CLOSING.has(word[to - 1] ?? '')) to -= 1;
  return { text: word.slice(from, to), start: start + from };
}

/** The part of `value` (at `start`) that is secret, or null for nothing to hide. */
function secretPart(value: string, start: number, entry: ClientPasswordFlag): Span | null {
  const from = entry.afterColon ? value.indexOf(':') + 1 : 0;
  if (entry.afterColon && from === 0) return null;
  const secret = value.slice(from);
  if (secret === '' || secret.startsWith('$') || secret === REDACTED) return null;
  return { start: start + from, end: start + value.length };
}

/** Reads one word of a client's command; says whether the next word is a flag's value. */
function readWord(word: Word, entry: ClientPasswordFlag, valueNext: boolean, spans: Span[]): boolean {
  if (valueNext) {
    const span = word.text.startsWith('-') ? null : secretPart(word.text, word.start, entry);
    if (span !== null) spans.push(span);
    return false;
  }
  for (const flag of entry.flags) {
    if (word.text === flag) return entry.separate;
    if (entry.joined && word.text.startsWith(flag) && !word.text.startsWith('--')) {
      const span = secretPart(word.text.slice(flag.length), word.start + flag.length, entry);
      if (span !== null) spans.push(span);
    }
  }
  return false;
}

/** The password spans in `text`: one pass over its words, so linear in the text. */
function findClientPasswords(text: string): Span[] {
  const spans: Span[] = [];
  let entry: ClientPasswordFlag | undefined;
  let valueNext = false;
  let lastEnd = 0;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match !== null; match = WORD.exec(text)) {
    if (text.slice(lastEnd, match.index).includes('\n')) entry = undefined;
    lastEnd = match.index + match[0].length;
    const word = unwrap(match[0], match.index);
    const program = BY_PROGRAM.get(word.text.slice(word.text.lastIndexOf('/') + 1));
    if (program !== undefined) {
      entry = program;
      valueNext = false;
    } else if (entry !== undefined) valueNext = readWord(word, entry, valueNext, spans);
    if (ENDS_COMMAND.test(match[0])) entry = undefined;
  }
  return spans;
}

export const redactClientPasswords: Rewrite = (text) => {
  if (!ANY_PROGRAM.test(text)) return text;
  let out = '';
  let from = 0;
  for (const span of findClientPasswords(text)) {
    out += text.slice(from, span.start) + REDACTED;
    from = span.end;
  }
  return out + text.slice(from);
};
