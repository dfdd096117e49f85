import { ElfFormatError, type ByteReader } from './byte-reader.js';
import { readDynamic, readDynamicSymbols } from './read-dynamic.js';
import { findSection, readElf } from './read-elf.js';
import { readFatbin, type FatbinSummary } from './read-fatbin.js';

export { ElfFormatError, readerOfBytes, type ByteReader } from './byte-reader.js';
export { readDynamic, readDynamicSymbols } from './read-dynamic.js';
export { findSection, readElf, type ElfFile, type ElfSection } from './read-elf.js';
export { readFatbin, type FatbinSummary } from './read-fatbin.js';

/** What a shared object tells the pre-flight: the GPU code it carries and what it needs from others. */
export interface SharedObjectFacts {
  needed: string[];
  soname: string | null;
  /** null when the file has no .nv_fatbin section (no CUDA kernels of its own). */
  fatbin: FatbinSummary | null;
  /** Undefined dynamic symbols that `wantSymbol` kept (e.g. torch's c10/at/torch namespaces); [] without it. */
  undefinedSymbols: string[];
  /** Whether the section headers were there to read: a file without them (sstrip) hides its fatbin. */
  hasSections: boolean;
}

// nvcc puts device code of shared objects in .nv_fatbin; relocatable device code (-rdc) in __nv_relfatbin.
const FATBIN_SECTIONS = ['.nv_fatbin', '__nv_relfatbin'];

/** Reads one shared object through `reader`; throws ElfFormatError for a non-ELF or cut-short file. */
export function inspectSharedObject(
  reader: ByteReader,
  wantSymbol: ((name: string) => boolean) | null = null,
): SharedObjectFacts {
  const elf = readElf(reader);
  const { needed, soname } = readDynamic(reader, elf);
  let fatbin: FatbinSummary | null = null;
  for (const name of FATBIN_SECTIONS) {
    const section = findSection(elf, name);
    if (section === undefined) continue;
    const found = readFatbin(reader, section);
    fatbin = fatbin === null ? found : mergeFatbins(fatbin, found);
  }
  // The symbol table is read only when asked: libtorch_cpu's runs to tens of megabytes.
  const undefinedSymbols =
    wantSymbol === null
      ? []
      : readDynamicSymbols(reader, elf, { undefined: wantSymbol, exported: false }).undefined;
  return { needed, soname, fatbin, undefinedSymbols, hasSections: elf.sections.length > 0 };
}

function mergeFatbins(a: FatbinSummary, b: FatbinSummary): FatbinSummary {
  const ptx = new Map([...a.ptx, ...b.ptx].map((entry) => [`${entry.arch}/${entry.version}`, entry]));
  return {
    sass: [...new Set([...a.sass, ...b.sass])].sort((x, y) => x - y),
    ptx: [...ptx.values()].sort((x, y) => x.arch - y.arch),
    compressedEntries: a.compressedEntries + b.compressedEntries,
    containers: a.containers + b.containers,
    truncated: a.truncated || b.truncated,
  };
}

export function isElfFormatError(error: unknown): error is ElfFormatError {
  return error instanceof ElfFormatError;
}
