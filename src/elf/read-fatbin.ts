import type { ByteReader } from './byte-reader.js';
import type { ElfSection } from './read-elf.js';

/** What one fatbin holds for the GPU: SASS (cubins) per architecture and PTX per virtual architecture. */
export interface FatbinSummary {
  /** SASS architectures as numbers: 80 for sm_80, 120 for sm_120. Sorted, unique. */
  sass: number[];
  /** PTX per virtual architecture with its PTX ISA version ('8.2'); sorted by architecture. */
  ptx: { arch: number; version: string }[];
  /** How many entries had their payload compressed (LZ4 or zstd); their headers are read all the same. */
  compressedEntries: number;
  /** Fatbin containers found in the section (one per compiled translation unit). */
  containers: number;
  /** Set when the section ended inside a container: the file is cut short or not what its headers say. */
  truncated: boolean;
}

const FATBIN_MAGIC = 0xba55ed50;
const KIND_PTX = 1;
const KIND_ELF = 2;
// LZ4 (0x2000, and the older 0x1000) and zstd (0x8000, CUDA 12.8+) compressed payloads.
const COMPRESSED = 0x1000 | 0x2000 | 0x8000;
const ENTRY_HEADER = 64;
// One page: most payloads are larger, so a bigger window would read bytes only to skip them.
const WINDOW = 4096;

/**
 * Walks the fatbin containers of a `.nv_fatbin` section by their headers: each entry header says its
 * kind, architecture and payload size, so the payloads themselves (most of the section) are skipped.
 */
export function readFatbin(reader: ByteReader, section: Pick<ElfSection, 'offset' | 'size'>): FatbinSummary {
  const cursor = windowed(reader);
  const end = Math.min(section.offset + section.size, reader.size);
  const sass = new Set<number>();
  const ptx = new Map<string, { arch: number; version: string }>();
  let compressedEntries = 0;
  let containers = 0;
  let truncated = section.offset + section.size > reader.size;
  let at = section.offset;
  while (at + 16 <= end) {
    const header = cursor.view(at, 16);
    if (header === null) break;
    if (header.getUint32(0, true) !== FATBIN_MAGIC) {
      // Containers are 8-byte aligned; padding (or data another tool put there) lies between them.
      at += 8;
      continue;
    }
    containers++;
    const headerSize = header.getUint16(6, true);
    const stop = at + headerSize + Number(header.getBigUint64(8, true));
    if (stop > end) truncated = true;
    let entryAt = at + headerSize;
    while (entryAt + ENTRY_HEADER <= Math.min(stop, end)) {
      const entry = cursor.view(entryAt, ENTRY_HEADER);
      if (entry === null) break;
      const kind = entry.getUint16(0, true);
      const entryHeaderSize = entry.getUint32(4, true);
      const payloadSize = Number(entry.getBigUint64(8, true));
      const minor = entry.getUint16(24, true);
      const major = entry.getUint16(26, true);
      const arch = entry.getUint32(28, true);
      const flags = entry.getUint32(40, true);
      if (entryHeaderSize < ENTRY_HEADER) break;
      if ((flags & COMPRESSED) !== 0) compressedEntries++;
      if (kind === KIND_ELF) sass.add(arch);
      else if (kind === KIND_PTX)
        ptx.set(`${arch}/${major}.${minor}`, { arch, version: `${major}.${minor}` });
      entryAt += entryHeaderSize + payloadSize;
    }
    if (entryAt + ENTRY_HEADER <= stop && stop <= end) truncated = true;
    at = Math.max(stop, at + 16);
    at += (8 - (at % 8)) % 8;
  }
  return {
    sass: [...sass].sort((a, b) => a - b),
    ptx: [...ptx.values()].sort((a, b) => a.arch - b.arch || a.version.localeCompare(b.version)),
    compressedEntries,
    containers,
    truncated,
  };
}

/** Reads through a one-page window, so small neighbouring headers (PTX entries, padding) cost one read. */
function windowed(reader: ByteReader): { view(offset: number, length: number): DataView | null } {
  let start = -1;
  let bytes: Uint8Array = new Uint8Array();
  return {
    view(offset, length) {
      if (start < 0 || offset < start || offset + length > start + bytes.length) {
        start = offset;
        bytes = reader.read(offset, Math.max(WINDOW, length));
      }
      if (offset + length > start + bytes.length) return null;
      return new DataView(bytes.buffer, bytes.byteOffset + offset - start, length);
    },
  };
}
