/**
 * Hand-made ELF64 little-endian shared objects for the reader's edge cases: the sections a linker writes
 * for a CUDA extension (.dynstr, .dynsym, .dynamic, .nv_fatbin, .shstrtab), laid out by offset as in a
 * real file, with fatbin containers whose entry headers follow the layout nvcc writes.
 */
export interface FatbinEntrySpec {
  kind: 'sass' | 'ptx';
  arch: number;
  /** PTX ISA version for PTX entries, e.g. '8.2'. */
  version?: string;
  /** Entry flags: 0x2000 LZ4, 0x8000 zstd. */
  flags?: number;
  payloadSize?: number;
}

export interface ElfSpec {
  needed?: string[];
  soname?: string;
  undefinedSymbols?: string[];
  weakUndefined?: string[];
  exported?: string[];
  hidden?: string[];
  /** Fatbin containers (each a list of entries); absent: no .nv_fatbin section. */
  fatbin?: FatbinEntrySpec[][];
  /** Leave the section header table out (as sstrip does). */
  noSectionHeaders?: boolean;
}

const SHT_STRTAB = 3;
const SHT_DYNAMIC = 6;
const SHT_PROGBITS = 1;
const SHT_DYNSYM = 11;

export function buildElf(spec: ElfSpec): Uint8Array {
  const dynstr = new StringTable();
  const needed = (spec.needed ?? []).map((name) => dynstr.add(name));
  const soname = spec.soname === undefined ? null : dynstr.add(spec.soname);
  const symbols = [
    ...(spec.undefinedSymbols ?? []).map((name) => ({ name, bind: 1, shndx: 0, other: 0 })),
    ...(spec.weakUndefined ?? []).map((name) => ({ name, bind: 2, shndx: 0, other: 0 })),
    ...(spec.exported ?? []).map((name) => ({ name, bind: 1, shndx: 1, other: 0 })),
    ...(spec.hidden ?? []).map((name) => ({ name, bind: 1, shndx: 1, other: 2 })),
  ].map((symbol) => ({ ...symbol, offset: dynstr.add(symbol.name) }));
  const dynsym = new Uint8Array(24 * (symbols.length + 1));
  const symView = new DataView(dynsym.buffer);
  symbols.forEach((symbol, index) => {
    const at = 24 * (index + 1);
    symView.setUint32(at, symbol.offset, true);
    symView.setUint8(at + 4, (symbol.bind << 4) | 2);
    symView.setUint8(at + 5, symbol.other);
    symView.setUint16(at + 6, symbol.shndx, true);
  });
  const tags: [number, number][] = [...needed.map((offset): [number, number] => [1, offset])];
  if (soname !== null) tags.push([14, soname]);
  tags.push([0, 0]);
  const dynamic = new Uint8Array(16 * tags.length);
  const dynView = new DataView(dynamic.buffer);
  tags.forEach(([tag, value], index) => {
    dynView.setBigUint64(16 * index, BigInt(tag), true);
    dynView.setBigUint64(16 * index + 8, BigInt(value), true);
  });
  const sections: { name: string; type: number; data: Uint8Array; link: number; entsize: number }[] = [
    { name: '.dynstr', type: SHT_STRTAB, data: dynstr.bytes(), link: 0, entsize: 0 },
    { name: '.dynsym', type: SHT_DYNSYM, data: dynsym, link: 1, entsize: 24 },
    { name: '.dynamic', type: SHT_DYNAMIC, data: dynamic, link: 1, entsize: 16 },
  ];
  if (spec.fatbin !== undefined) {
    sections.push({
      name: '.nv_fatbin',
      type: SHT_PROGBITS,
      data: buildFatbin(spec.fatbin),
      link: 0,
      entsize: 0,
    });
  }
  const names = new StringTable();
  const nameOffsets = sections.map((section) => names.add(section.name));
  const shstrtabName = names.add('.shstrtab');
  sections.push({ name: '.shstrtab', type: SHT_STRTAB, data: names.bytes(), link: 0, entsize: 0 });
  nameOffsets.push(shstrtabName);

  // Layout: ELF header, then each section 8-byte aligned, then the section header table.
  let offset = 64;
  const placed = sections.map((section) => {
    offset = align(offset, 8);
    const at = offset;
    offset += section.data.length;
    return at;
  });
  const tableAt = align(offset, 8);
  const count = sections.length + 1;
  const total = spec.noSectionHeaders ? tableAt : tableAt + 64 * count;
  const file = new Uint8Array(total);
  const view = new DataView(file.buffer);
  file.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1], 0);
  view.setUint16(16, 3, true); // ET_DYN
  view.setUint16(18, 62, true); // x86-64
  view.setUint32(20, 1, true);
  view.setUint16(52, 64, true);
  if (!spec.noSectionHeaders) {
    view.setBigUint64(0x28, BigInt(tableAt), true);
    view.setUint16(0x3a, 64, true);
    view.setUint16(0x3c, count, true);
    view.setUint16(0x3e, count - 1, true);
  }
  sections.forEach((section, index) => {
    file.set(section.data, placed[index] ?? 0);
    if (spec.noSectionHeaders) return;
    const at = tableAt + 64 * (index + 1);
    view.setUint32(at, nameOffsets[index] ?? 0, true);
    view.setUint32(at + 4, section.type, true);
    view.setBigUint64(at + 24, BigInt(placed[index] ?? 0), true);
    view.setBigUint64(at + 32, BigInt(section.data.length), true);
    view.setUint32(at + 40, section.link, true);
    view.setBigUint64(at + 56, BigInt(section.entsize), true);
  });
  return file;
}

/** Fatbin containers: a 16-byte header (magic, version 1, header size 16, size of entries), then entries. */
export function buildFatbin(containers: FatbinEntrySpec[][]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const entries of containers) {
    const bodies = entries.map((entry) => {
      const payload = entry.payloadSize ?? 40;
      const body = new Uint8Array(64 + payload);
      const view = new DataView(body.buffer);
      const [major = 0, minor = 0] = (entry.version ?? '1.7').split('.').map(Number);
      view.setUint16(0, entry.kind === 'ptx' ? 1 : 2, true);
      view.setUint16(2, 0x0101, true);
      view.setUint32(4, 64, true);
      view.setBigUint64(8, BigInt(payload), true);
      view.setUint16(24, entry.kind === 'ptx' ? minor : 7, true);
      view.setUint16(26, entry.kind === 'ptx' ? major : 1, true);
      view.setUint32(28, entry.arch, true);
      view.setBigUint64(40, BigInt(0x11 | (entry.flags ?? 0)), true);
      return body;
    });
    const size = bodies.reduce((sum, body) => sum + body.length, 0);
    const header = new Uint8Array(16);
    const view = new DataView(header.buffer);
    view.setUint32(0, 0xba55ed50, true);
    view.setUint16(4, 1, true);
    view.setUint16(6, 16, true);
    view.setBigUint64(8, BigInt(size), true);
    parts.push(header, ...bodies);
    const padding = (8 - ((16 + size) % 8)) % 8;
    if (padding > 0) parts.push(new Uint8Array(padding));
  }
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

class StringTable {
  private readonly chunks: number[] = [0];
  private readonly seen = new Map<string, number>();
  add(text: string): number {
    const known = this.seen.get(text);
    if (known !== undefined) return known;
    const offset = this.chunks.length;
    this.chunks.push(...new TextEncoder().encode(text), 0);
    this.seen.set(text, offset);
    return offset;
  }
  bytes(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }
}

function align(value: number, to: number): number {
  return Math.ceil(value / to) * to;
}
