import { describe, expect, it } from 'vitest';
import {
  ElfFormatError,
  inspectSharedObject,
  readDynamicSymbols,
  readElf,
  readerOfBytes,
  readFatbin,
} from '../../src/elf/index.js';
import { buildElf, type ElfSpec } from './helpers/build-elf.js';

const TORCH = (name: string): boolean => /^_ZN[KVr]*(3c10|2at|5torch)\d/.test(name);

function inspect(spec: ElfSpec) {
  return inspectSharedObject(readerOfBytes(buildElf(spec)), TORCH);
}

describe('inspectSharedObject on hand-made ELF files', () => {
  it('lists SASS architectures and PTX versions across fatbin containers', () => {
    const facts = inspect({
      fatbin: [
        [
          { kind: 'sass', arch: 80 },
          { kind: 'sass', arch: 90 },
          { kind: 'ptx', arch: 90, version: '8.4' },
        ],
        [
          { kind: 'sass', arch: 80 },
          { kind: 'sass', arch: 100 },
        ],
      ],
    });
    expect(facts.fatbin).toEqual({
      sass: [80, 90, 100],
      ptx: [{ arch: 90, version: '8.4' }],
      compressedEntries: 0,
      containers: 2,
      truncated: false,
    });
  });

  it('reads the headers of compressed entries (LZ4 and zstd) without their payloads', () => {
    const facts = inspect({
      fatbin: [
        [
          { kind: 'sass', arch: 86, flags: 0x2000, payloadSize: 3000 },
          { kind: 'ptx', arch: 86, version: '8.7', flags: 0x8000 },
        ],
      ],
    });
    expect(facts.fatbin?.sass).toEqual([86]);
    expect(facts.fatbin?.ptx).toEqual([{ arch: 86, version: '8.7' }]);
    expect(facts.fatbin?.compressedEntries).toBe(2);
  });

  it('reports a PTX-only fatbin with no SASS', () => {
    const facts = inspect({ fatbin: [[{ kind: 'ptx', arch: 75, version: '8.2' }]] });
    expect(facts.fatbin).toMatchObject({ sass: [], ptx: [{ arch: 75, version: '8.2' }] });
  });

  it('gives null for a library without a .nv_fatbin section', () => {
    expect(inspect({ needed: ['libc.so.6'] }).fatbin).toBeNull();
  });

  it('lists DT_NEEDED, the soname, and only the strong undefined symbols it was asked for', () => {
    const facts = inspect({
      needed: ['libc10.so', 'libtorch_cpu.so', 'libc.so.6'],
      soname: '_C.abi3.so',
      undefinedSymbols: ['_ZNK3c106SymInt6sym_neERKS0_', '_ZN2at4_ops3add4callEv', 'malloc'],
      weakUndefined: ['_ZN3c105ErrorD0Ev'],
      exported: ['PyInit__C'],
    });
    expect(facts.needed).toEqual(['libc10.so', 'libtorch_cpu.so', 'libc.so.6']);
    expect(facts.soname).toBe('_C.abi3.so');
    expect(facts.undefinedSymbols).toEqual(['_ZNK3c106SymInt6sym_neERKS0_', '_ZN2at4_ops3add4callEv']);
  });

  it('lists exported symbols, leaving hidden ones out', () => {
    const bytes = buildElf({ exported: ['_ZN3c106SymInt6sym_neERKS0_'], hidden: ['_ZN3c10secretEv'] });
    const reader = readerOfBytes(bytes);
    const symbols = readDynamicSymbols(reader, readElf(reader), { undefined: false, exported: true });
    expect([...symbols.exported]).toEqual(['_ZN3c106SymInt6sym_neERKS0_']);
  });

  it('still reads a stripped library (no .symtab): the dynamic tables and the fatbin stay', () => {
    // `strip --strip-all` removes .symtab and .strtab only; buildElf never writes them.
    const facts = inspect({ needed: ['libcudart.so.12'], fatbin: [[{ kind: 'sass', arch: 89 }]] });
    expect(facts).toMatchObject({ needed: ['libcudart.so.12'], hasSections: true, fatbin: { sass: [89] } });
  });

  it('says when the section headers are gone (sstrip): nothing to read kernels from', () => {
    const facts = inspect({
      needed: ['libc.so.6'],
      fatbin: [[{ kind: 'sass', arch: 89 }]],
      noSectionHeaders: true,
    });
    expect(facts).toMatchObject({ hasSections: false, fatbin: null, needed: [] });
  });

  it.each([
    ['cut inside the section header table', (bytes: Uint8Array) => bytes.subarray(0, bytes.length - 10)],
    ['cut inside the ELF header', (bytes: Uint8Array) => bytes.subarray(0, 40)],
  ])('throws a truncation error for a file %s', (_name, cut) => {
    const bytes = cut(buildElf({ needed: ['libc.so.6'], fatbin: [[{ kind: 'sass', arch: 80 }]] }));
    expect(() => inspectSharedObject(readerOfBytes(bytes))).toThrow(ElfFormatError);
    try {
      inspectSharedObject(readerOfBytes(bytes));
    } catch (error) {
      expect((error as ElfFormatError).kind).toBe('truncated');
    }
  });

  it('marks a fatbin whose section runs past the end of the file as truncated', () => {
    const bytes = buildElf({
      fatbin: [
        [
          { kind: 'sass', arch: 80, payloadSize: 64 },
          { kind: 'sass', arch: 90 },
        ],
      ],
    });
    const reader = readerOfBytes(bytes);
    const elf = readElf(reader);
    const section = elf.sections.find((candidate) => candidate.name === '.nv_fatbin');
    if (section === undefined) throw new Error('no fatbin section');
    // Keep the headers, drop the fatbin's second half: a download cut short.
    const end = section.offset + 100;
    const cut = {
      size: end,
      read: (offset: number, length: number) => reader.read(offset, Math.min(length, end - offset)),
    };
    const summary = readFatbin(cut, section);
    expect(summary.truncated).toBe(true);
    expect(summary.sass).toEqual([80]);
  });

  it.each([
    ['a text file named .so', new TextEncoder().encode('INPUT(-lfoo)\n/* GNU ld script */\n')],
    ['an empty file', new Uint8Array()],
    ['a Mach-O header', Uint8Array.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0])],
  ])('rejects %s as not ELF', (_name, bytes) => {
    expect(() => inspectSharedObject(readerOfBytes(bytes))).toThrow(/not an ELF file/);
  });
});
