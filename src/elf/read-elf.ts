import { ElfFormatError, readExactly, type ByteReader } from './byte-reader.js';

export interface ElfSection {
  name: string;
  type: number;
  offset: number;
  size: number;
  /** Index of the section this one refers to (a symbol table's string table). */
  link: number;
  entrySize: number;
}

export interface ElfFile {
  is64: boolean;
  littleEndian: boolean;
  /** Empty when the file carries no section headers (sstrip); the dynamic data is then unreachable. */
  sections: ElfSection[];
}

export const SHT_NOBITS = 8;
export const SHT_DYNAMIC = 6;
export const SHT_DYNSYM = 11;
// libtorch_cpu's .dynstr, the largest table read, is tens of megabytes: a bigger one is damage, not data.
const MAX_TABLE_BYTES = 512 * 1024 * 1024;

/** Reads the ELF header and the section header table (and its names): a few kilobytes of any file. */
export function readElf(reader: ByteReader): ElfFile {
  if (reader.size < 16) throw new ElfFormatError('not an ELF file (shorter than an ELF header)', 'not-elf');
  const ident = reader.read(0, 16);
  if (ident[0] !== 0x7f || ident[1] !== 0x45 || ident[2] !== 0x4c || ident[3] !== 0x46) {
    throw new ElfFormatError('not an ELF file (no \\x7fELF magic)', 'not-elf');
  }
  const is64 = ident[4] === 2;
  const littleEndian = ident[5] !== 2;
  if (ident[4] !== 1 && ident[4] !== 2)
    throw new ElfFormatError(`unknown ELF class ${ident[4]}`, 'unsupported');
  const header = readExactly(reader, 0, is64 ? 64 : 52, 'the ELF header');
  const field = fieldReader(header, littleEndian, is64);
  const sectionsAt = field.word(is64 ? 0x28 : 0x20);
  const entrySize = header.getUint16(is64 ? 0x3a : 0x2e, littleEndian);
  let count = header.getUint16(is64 ? 0x3c : 0x30, littleEndian);
  let namesIndex = header.getUint16(is64 ? 0x3e : 0x32, littleEndian);
  if (sectionsAt === 0) return { is64, littleEndian, sections: [] };
  if (entrySize < (is64 ? 64 : 40))
    throw new ElfFormatError(`section header size ${entrySize} is too small`, 'unsupported');
  // More than 0xff00 sections: the real count and names index sit in section 0 (ELF gABI).
  if (count === 0 || namesIndex === 0xffff) {
    const first = parseSection(
      readExactly(reader, sectionsAt, entrySize, 'section header 0'),
      littleEndian,
      is64,
    );
    if (count === 0) count = first.size;
    if (namesIndex === 0xffff) namesIndex = first.link;
  }
  const table = readExactly(reader, sectionsAt, count * entrySize, 'the section header table');
  const raw = Array.from({ length: count }, (_, index) =>
    parseSection(
      new DataView(table.buffer, table.byteOffset + index * entrySize, entrySize),
      littleEndian,
      is64,
    ),
  );
  const names = raw[namesIndex];
  const nameBytes =
    names === undefined || names.type === SHT_NOBITS
      ? new Uint8Array()
      : readSectionBytes(reader, names, 'the section names');
  const sections = raw.map((section) => ({ ...section, name: readString(nameBytes, section.nameOffset) }));
  return { is64, littleEndian, sections };
}

/** A section's bytes: for the small tables (names, dynamic, symbols), never for a fatbin. */
export function readSectionBytes(
  reader: ByteReader,
  section: Pick<ElfSection, 'offset' | 'size'>,
  what: string,
): Uint8Array {
  if (section.size > MAX_TABLE_BYTES) {
    throw new ElfFormatError(
      `${what} claims ${section.size} bytes, more than any real library holds`,
      'unsupported',
    );
  }
  const view = readExactly(reader, section.offset, section.size, what);
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

export function findSection(elf: ElfFile, name: string): ElfSection | undefined {
  return elf.sections.find((section) => section.name === name && section.type !== SHT_NOBITS);
}

/** The NUL-terminated string at `offset` of a string table. */
export function readString(table: Uint8Array, offset: number): string {
  if (offset >= table.length) return '';
  let end = offset;
  while (end < table.length && table[end] !== 0) end++;
  return DECODER.decode(table.subarray(offset, end));
}

const DECODER = new TextDecoder('utf-8');

interface RawSection extends Omit<ElfSection, 'name'> {
  nameOffset: number;
}

function parseSection(view: DataView, littleEndian: boolean, is64: boolean): RawSection {
  const field = fieldReader(view, littleEndian, is64);
  return is64
    ? {
        nameOffset: view.getUint32(0, littleEndian),
        type: view.getUint32(4, littleEndian),
        offset: field.word(24),
        size: field.word(32),
        link: view.getUint32(40, littleEndian),
        entrySize: field.word(56),
      }
    : {
        nameOffset: view.getUint32(0, littleEndian),
        type: view.getUint32(4, littleEndian),
        offset: view.getUint32(16, littleEndian),
        size: view.getUint32(20, littleEndian),
        link: view.getUint32(24, littleEndian),
        entrySize: view.getUint32(36, littleEndian),
      };
}

/** Address-sized fields: 8 bytes in ELF64, 4 in ELF32; offsets fit a double well past any real file. */
export function fieldReader(
  view: DataView,
  littleEndian: boolean,
  is64: boolean,
): { word(at: number): number } {
  return {
    word: (at) => (is64 ? Number(view.getBigUint64(at, littleEndian)) : view.getUint32(at, littleEndian)),
  };
}
