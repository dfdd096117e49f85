import type { ByteReader } from './byte-reader.js';
import {
  fieldReader,
  readSectionBytes,
  readString,
  SHT_DYNAMIC,
  SHT_DYNSYM,
  SHT_NOBITS,
  type ElfFile,
} from './read-elf.js';

export interface DynamicInfo {
  /** DT_NEEDED: the libraries the loader opens for this one, in order; its undefined symbols come from them. */
  needed: string[];
  soname: string | null;
}

export interface DynamicSymbols {
  /** Symbols this file needs from another library (undefined, global binding; weak ones may stay unbound). */
  undefined: string[];
  /** Symbols it exports (defined, global or weak, visible). Only filled when asked for. */
  exported: Set<string>;
}

const DT_NEEDED = 1;
const DT_SONAME = 14;
const STB_LOCAL = 0;
const STB_WEAK = 2;
const STV_HIDDEN = 2;
const STV_INTERNAL = 1;

/** DT_NEEDED and DT_SONAME from the .dynamic section; empty for a static file. */
export function readDynamic(reader: ByteReader, elf: ElfFile): DynamicInfo {
  const dynamic = elf.sections.find((section) => section.type === SHT_DYNAMIC);
  if (dynamic === undefined) return { needed: [], soname: null };
  const strings = stringTable(reader, elf, dynamic.link);
  const bytes = readSectionBytes(reader, dynamic, 'the .dynamic section');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const field = fieldReader(view, elf.littleEndian, elf.is64);
  const step = elf.is64 ? 16 : 8;
  const needed: string[] = [];
  let soname: string | null = null;
  for (let at = 0; at + step <= bytes.length; at += step) {
    const tag = field.word(at);
    if (tag === 0) break;
    const value = field.word(at + step / 2);
    if (tag === DT_NEEDED) needed.push(readString(strings, value));
    else if (tag === DT_SONAME) soname = readString(strings, value);
  }
  return { needed, soname };
}

/**
 * The dynamic symbol table: names are decoded only for the symbols asked for, since libtorch_cpu's table
 * holds hundreds of thousands of them.
 */
export function readDynamicSymbols(
  reader: ByteReader,
  elf: ElfFile,
  want: { undefined: boolean | ((name: string) => boolean); exported: boolean },
): DynamicSymbols {
  const result: DynamicSymbols = { undefined: [], exported: new Set() };
  const table = elf.sections.find((section) => section.type === SHT_DYNSYM);
  if (table === undefined) return result;
  const strings = stringTable(reader, elf, table.link);
  const bytes = readSectionBytes(reader, table, 'the .dynsym section');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const step = elf.is64 ? 24 : 16;
  const keepUndefined = typeof want.undefined === 'function' ? want.undefined : () => want.undefined;
  for (let at = step; at + step <= bytes.length; at += step) {
    const nameOffset = view.getUint32(at, elf.littleEndian);
    const info = view.getUint8(at + (elf.is64 ? 4 : 12));
    const other = view.getUint8(at + (elf.is64 ? 5 : 13));
    const sectionIndex = view.getUint16(at + (elf.is64 ? 6 : 14), elf.littleEndian);
    const binding = info >> 4;
    if (binding === STB_LOCAL || nameOffset === 0) continue;
    if (sectionIndex === 0) {
      if (binding === STB_WEAK || want.undefined === false) continue;
      const name = readString(strings, nameOffset);
      if (keepUndefined(name)) result.undefined.push(name);
    } else if (want.exported) {
      const visibility = other & 3;
      if (visibility === STV_HIDDEN || visibility === STV_INTERNAL) continue;
      result.exported.add(readString(strings, nameOffset));
    }
  }
  return result;
}

function stringTable(reader: ByteReader, elf: ElfFile, index: number): Uint8Array {
  const section = elf.sections[index];
  if (section === undefined || section.type === SHT_NOBITS) return new Uint8Array();
  return readSectionBytes(reader, section, `string table ${section.name || index}`);
}
