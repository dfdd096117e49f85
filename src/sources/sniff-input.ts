/**
 * What an input's first bytes say it is, before anything reads it as a log: so an empty file, a binary,
 * a compressed file Vigil would otherwise read as noise, or journalctl's "-- No entries --" never ends in
 * "no failure found". Pure: the bytes in, the kind out; read-files.ts acts on it.
 */

/** How many bytes are sniffed; also how much of a pipe is read before deciding. */
export const SNIFF_BYTES = 8192;

export type InputKind =
  | { kind: 'text' }
  | { kind: 'gzip' }
  /** Decompressed through the system's program, as a subprocess. */
  | { kind: 'compressed'; format: CompressedFormat }
  /** PowerShell's `>` writes UTF-16 LE with a BOM; decoded to UTF-8. */
  | { kind: 'utf-16'; encoding: 'utf-16le' | 'utf-16be' }
  /** A systemd journal file (magic LPKSHHRH): journalctl reads it. */
  | { kind: 'journal-file' }
  /** Nothing to read as a log: the reason, as the end of "X ...". */
  | { kind: 'refused'; reason: string };

export type CompressedFormat = 'xz' | 'bzip2' | 'zstd';

/** The system program that decompresses each format to stdout, and the Debian package it comes in. */
export const DECOMPRESSORS: Record<CompressedFormat, { program: string; args: string[]; debian: string }> = {
  xz: { program: 'xz', args: ['-dc'], debian: 'xz-utils' },
  bzip2: { program: 'bzip2', args: ['-dc'], debian: 'bzip2' },
  zstd: { program: 'zstd', args: ['-dc', '-q'], debian: 'zstd' },
};

const MAGIC: { bytes: number[]; kind: InputKind }[] = [
  { bytes: [0x1f, 0x8b], kind: { kind: 'gzip' } },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], kind: { kind: 'compressed', format: 'xz' } },
  { bytes: [0x42, 0x5a, 0x68], kind: { kind: 'compressed', format: 'bzip2' } },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], kind: { kind: 'compressed', format: 'zstd' } },
  { bytes: [...Buffer.from('LPKSHHRH')], kind: { kind: 'journal-file' } },
  { bytes: [0xff, 0xfe], kind: { kind: 'utf-16', encoding: 'utf-16le' } },
  { bytes: [0xfe, 0xff], kind: { kind: 'utf-16', encoding: 'utf-16be' } },
];

/** Binary formats a user may pass by mistake, named in the refusal. */
const BINARY_MAGIC: { bytes: number[]; what: string }[] = [
  { bytes: [0x7f, 0x45, 0x4c, 0x46], what: 'an ELF executable or library' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive' },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], what: 'a 7-zip archive' },
  { bytes: [...Buffer.from('SQLite format 3\0')], what: 'an SQLite database' },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
];

/**
 * Lines journalctl prints when it found nothing to show (to stdout, so they reach a pipe): an input made
 * of these alone holds no log line.
 */
const JOURNALCTL_NOTICES = [
  /^-- No entries --$/,
  /^-- (?:Journal begins|Logs begin) at .* --$/,
  /^-- (?:Boot [0-9a-f]+|Reboot) --$/,
  /^Hint: You are currently not seeing messages from other users and the system\.$/,
  /^\s+Users in (?:the )?groups .* can see all messages\.$/,
  /^\s+Pass -q to turn off this notice\.$/,
  /^No journal files were (?:found|opened due to insufficient permissions)\.$/,
];

/** Above this share of control bytes and invalid UTF-8, the input is not text (random data, a core dump). */
const BINARY_SHARE = 0.3;

/**
 * The kind of an input from its first bytes. `complete` says the head is the whole input, which is needed
 * to say that it holds no log line at all.
 */
export function sniffInput(head: Uint8Array, complete: boolean): InputKind {
  const magic = MAGIC.find((entry) => startsWith(head, entry.bytes));
  if (magic?.kind.kind === 'utf-16') return judgeUtf16(head.subarray(2), magic.kind);
  if (magic !== undefined) return magic.kind;
  const binary = BINARY_MAGIC.find((entry) => startsWith(head, entry.bytes));
  if (binary !== undefined) return { kind: 'refused', reason: `is ${binary.what}, not a log` };
  const utf16 = guessUtf16(head);
  if (utf16 !== null) return judgeUtf16(head, { kind: 'utf-16', encoding: utf16 });
  // copytruncate leaves the start of a rotated log as a run of NUL bytes, and a writer that kept its offset
  // after the file was truncated under it (`>` redirection, a second server writing the same file) leaves a
  // hole of them inside it: they are no data, so what is around them is judged.
  const text = new TextDecoder().decode(head).replaceAll('\0', '');
  if (text === '') return !complete ? TEXT : head.length === 0 ? EMPTY : NUL_ONLY;
  if (shareOfBinary(text) > BINARY_SHARE) return BINARY;
  if (complete && !holdsLogLine(text)) return describeNoLines(text);
  return TEXT;
}

const TEXT: InputKind = { kind: 'text' };
const BINARY: InputKind = {
  kind: 'refused',
  reason: "is binary data, not a text log: give the server's log file, or its journal with --unit",
};

/** Below this share of ASCII, text read as UTF-16 is not a log: a log in any script keeps its times and digits. */
const UTF16_ASCII_SHARE = 0.05;

/**
 * Two bytes that look like a BOM start 1 in 32,768 random files: such a file, read as UTF-16, is a run of
 * characters from every script and hardly any ASCII, where a log in any language keeps its digits, spaces and
 * line ends.
 */
function judgeUtf16(body: Uint8Array, kind: InputKind & { kind: 'utf-16' }): InputKind {
  const text = new TextDecoder(kind.encoding).decode(body.subarray(0, body.length - (body.length % 2)));
  if (text.length < 32) return kind;
  const ascii = text.match(/[\t\n\r\x20-\x7e]/g)?.length ?? 0;
  return ascii / text.length < UTF16_ASCII_SHARE || shareOfBinary(text) > BINARY_SHARE ? BINARY : kind;
}
const EMPTY: InputKind = { kind: 'refused', reason: 'is empty: there is no log line to diagnose' };
const NUL_ONLY: InputKind = { kind: 'refused', reason: 'holds only NUL bytes, no log line' };

function startsWith(head: Uint8Array, bytes: number[]): boolean {
  return head.length >= bytes.length && bytes.every((byte, index) => head[index] === byte);
}

/** UTF-16 without a BOM: ASCII text then has a NUL in every other byte, on the odd (LE) or even (BE) side. */
function guessUtf16(head: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const pairs = Math.min(Math.floor(head.length / 2), 512);
  if (pairs < 4) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let pair = 0; pair < pairs; pair += 1) {
    if (head[pair * 2] === 0) evenNul += 1;
    if (head[pair * 2 + 1] === 0) oddNul += 1;
  }
  if (oddNul >= pairs * 0.6 && evenNul <= pairs * 0.05) return 'utf-16le';
  if (evenNul >= pairs * 0.6 && oddNul <= pairs * 0.05) return 'utf-16be';
  return null;
}

/**
 * The characters no log line holds: the replacement character and the control characters other than tab,
 * the line ends, form feed and those of terminal output (escape, backspace, vertical tab).
 */
// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const BINARY_CHARS = /[\0-\x07\x0e-\x1a\x1c-\x1f\x7f\ufffd]/g;

/** Share of characters that no log line holds: one regex pass, not a loop of script per character. */
function shareOfBinary(text: string): number {
  return text.length === 0 ? 0 : (text.match(BINARY_CHARS)?.length ?? 0) / text.length;
}

function holdsLogLine(text: string): boolean {
  return text
    .split(/\r\n|\r|\n/)
    .some((line) => line.replaceAll('\0', '').trim() !== '' && !isJournalctlNotice(line));
}

function isJournalctlNotice(line: string): boolean {
  return JOURNALCTL_NOTICES.some((notice) => notice.test(line));
}

function describeNoLines(text: string): InputKind {
  if (/^-- No entries --$/m.test(text)) {
    return {
      kind: 'refused',
      reason:
        'holds no log line, only journalctl\'s "-- No entries --": check the unit name (systemctl list-units), --since, and that you may read its journal (root or the systemd-journal group)',
    };
  }
  if (text.split(/\r\n|\r|\n/).some(isJournalctlNotice)) {
    return { kind: 'refused', reason: "holds no log line, only journalctl's notices" };
  }
  return { kind: 'refused', reason: 'holds no log line, only blank lines' };
}
