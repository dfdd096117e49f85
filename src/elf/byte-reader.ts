/**
 * Random access to a file's bytes. The ELF reader asks only for the headers and sections it needs, so a
 * 1.5 GB libtorch is never held in memory; the file-backed reader lives at the edge (environment/).
 */
export interface ByteReader {
  /** The file's length in bytes. */
  readonly size: number;
  /** Up to `length` bytes at `offset`: fewer at the end of the file, none past it. */
  read(offset: number, length: number): Uint8Array;
}

/** A reader over bytes already in memory (tests, hand-made fixtures). */
export function readerOfBytes(bytes: Uint8Array): ByteReader {
  return {
    size: bytes.length,
    read: (offset, length) => bytes.subarray(Math.max(0, offset), Math.max(0, offset + length)),
  };
}

/** Thrown when the bytes are not an ELF file or end before a structure the headers point to. */
export class ElfFormatError extends Error {
  constructor(
    message: string,
    readonly kind: 'not-elf' | 'truncated' | 'unsupported',
  ) {
    super(message);
    this.name = 'ElfFormatError';
  }
}

/** Exactly `length` bytes at `offset`, or a truncation error naming what was being read. */
export function readExactly(reader: ByteReader, offset: number, length: number, what: string): DataView {
  if (offset < 0 || offset + length > reader.size) {
    throw new ElfFormatError(
      `${what} at byte ${offset} (${length} bytes) lies past the end of the file (${reader.size} bytes)`,
      'truncated',
    );
  }
  const bytes = reader.read(offset, length);
  if (bytes.length < length) {
    throw new ElfFormatError(`${what} at byte ${offset}: the file ended early`, 'truncated');
  }
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
