import type { JournalEntry } from './format-journal-entry.js';

const NEWLINE = 0x0a;
const EQUALS = 0x3d;
/** Bytes of the little-endian length before a binary field's data. */
const SIZE_BYTES = 8;

/**
 * `journalctl -o export` output as entries, a batch per chunk, keeping only the fields named in `keep`
 * (the first value of a repeated one). Export is journalctl's cheapest output that loses nothing: on a
 * 100 MB unit journal it cost journalctl 3.3 s of CPU against 12.5 s for `-o json`, whose escaping is most
 * of that (BENCHMARKS.md). The format (https://systemd.io/JOURNAL_EXPORT_FORMATS/): `NAME=value\n` per
 * field, or, for a value that is binary, not UTF-8 or holds a newline, `NAME\n`, its length as a 64-bit
 * little-endian number, its bytes and `\n`; an empty line ends an entry. Values are decoded as UTF-8, as
 * fieldText decodes JSON's byte arrays. A stream cut inside an entry is said in a warning.
 */
export async function* parseExportEntries(
  chunks: AsyncIterable<Uint8Array>,
  keep: ReadonlySet<string>,
  warnings: string[],
): AsyncGenerator<JournalEntry[]> {
  // Bytes of an entry not yet whole, and how many it takes at least before trying again: a long binary
  // field is gathered chunk by chunk, not joined again at each one.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let waitFor = 0;
  for await (const chunk of chunks) {
    pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    pendingBytes += chunk.byteLength;
    if (pendingBytes < waitFor) continue;
    const bytes = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending, pendingBytes);
    const read = readEntries(bytes, keep);
    // The rest is copied: the runner may reuse the chunk's memory.
    pending = read.consumed < bytes.length ? [Buffer.from(bytes.subarray(read.consumed))] : [];
    pendingBytes = bytes.length - read.consumed;
    waitFor = read.needed - read.consumed;
    if (read.entries.length > 0) yield read.entries;
  }
  if (pending.some((part) => part.some((byte) => byte !== NEWLINE))) {
    warnings.push('journalctl stopped inside an entry; the part of it that came was skipped');
  }
}

interface ReadEntries {
  entries: JournalEntry[];
  /** Bytes of whole entries read. */
  consumed: number;
  /** Bytes the next entry takes at least, counted from the start of `bytes`. */
  needed: number;
}

/** The whole entries at the front of `bytes`. */
function readEntries(bytes: Buffer, keep: ReadonlySet<string>): ReadEntries {
  const entries: JournalEntry[] = [];
  let consumed = 0;
  let entry: JournalEntry = {};
  let fields = 0;
  let at = 0;
  while (at < bytes.length) {
    if (bytes[at] === NEWLINE) {
      // An empty line ends the entry (two in a row are nothing).
      at += 1;
      if (fields > 0) entries.push(entry);
      entry = {};
      fields = 0;
      consumed = at;
      continue;
    }
    const next = readField(bytes, at);
    if (next < 0) return { entries, consumed, needed: -next };
    fields += 1;
    if (keep.has(field.name) && !(field.name in entry)) {
      entry[field.name] = bytes.toString('utf8', field.start, field.end);
    }
    at = next;
  }
  return { entries, consumed, needed: bytes.length + 1 };
}

/** The last field readField found: one object, not one per field. */
const field = { name: '', start: 0, end: 0 };

/**
 * Reads the field that begins at `at` into `field` and returns where the next begins; when the field is
 * not all there, minus the bytes it takes at least.
 */
function readField(bytes: Buffer, at: number): number {
  let end = at;
  while (end < bytes.length && bytes[end] !== EQUALS && bytes[end] !== NEWLINE) end += 1;
  if (end >= bytes.length) return -(bytes.length + 1);
  field.name = bytes.toString('latin1', at, end);
  if (bytes[end] === EQUALS) {
    const lineEnd = bytes.indexOf(NEWLINE, end + 1);
    if (lineEnd === -1) return -(bytes.length + 1);
    field.start = end + 1;
    field.end = lineEnd;
    return lineEnd + 1;
  }
  const dataStart = end + 1 + SIZE_BYTES;
  if (dataStart > bytes.length) return -dataStart;
  const dataEnd = dataStart + Number(bytes.readBigUInt64LE(end + 1));
  // The data, then its newline.
  if (dataEnd + 1 > bytes.length) return -(dataEnd + 1);
  field.start = dataStart;
  field.end = dataEnd;
  return dataEnd + 1;
}
