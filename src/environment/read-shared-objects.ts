import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  ElfFormatError,
  inspectSharedObject,
  isElfFormatError,
  readDynamicSymbols,
  readElf,
  type ByteReader,
  type SharedObjectFacts,
} from '../elf/index.js';
import { findFiles } from './record-rows.js';
import type { Distribution } from './types.js';

/** One compiled library listed in a distribution's RECORD, as read from its ELF headers. */
export interface SharedObjectReading {
  /** The distribution whose RECORD lists it. */
  distribution: string;
  version: string;
  /** Path relative to its site-packages folder, as RECORD writes it. */
  path: string;
  facts: SharedObjectFacts | null;
  /** Why the file could not be read (not ELF, cut short, missing), when facts is null. */
  unreadable: string | null;
  /** Set when the file is not on disk at all (as opposed to there but damaged). */
  missing?: boolean;
}

/** What the installed libtorch exports, per library file name (libc10.so, libtorch_cpu.so, …). */
export type TorchExports = ReadonlyMap<string, ReadonlySet<string>>;

// Symbols in torch's C++ namespaces (c10::, at::, torch::), mangled: `_ZN3c10…`, `_ZNK2at…`, `_ZN5torch…`.
export const TORCH_SYMBOL = /^_ZN[KVrLO]*(?:3c10|2at|5torch)\d/;
const SHARED_OBJECT = /\.so(?:\.\d+)*$/;
const TORCH_LIBRARY = /^lib(?:c10|torch)[\w-]*\.so$/;

/**
 * Every `.so` the installed distributions list in RECORD, read through their ELF headers: the CUDA
 * kernels each carries and the torch symbols each needs. Only the header tables and the fatbin's entry
 * headers are read, never whole files.
 */
export function readSharedObjects(distributions: readonly Distribution[]): SharedObjectReading[] {
  const readings: SharedObjectReading[] = [];
  for (const distribution of distributions) {
    for (const entry of findFiles(distribution, '.so')) {
      if (!SHARED_OBJECT.test(entry.path)) continue;
      const path = join(distribution.sitePackages, entry.path);
      const reading = { distribution: distribution.name, version: distribution.version, path: entry.path };
      try {
        const facts = withFile(path, (reader) =>
          // torch's own libraries resolve among themselves; only other distributions need torch's symbols.
          inspectSharedObject(
            reader,
            distribution.key === 'torch' ? null : (name) => TORCH_SYMBOL.test(name),
          ),
        );
        readings.push({ ...reading, facts, unreadable: null });
      } catch (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        readings.push({ ...reading, facts: null, unreadable: describeReadError(error), missing });
      }
    }
  }
  return readings;
}

/**
 * The symbols exported by torch's own libraries (libc10*.so, libtorch*.so): read only when some other
 * library needs a torch symbol, since libtorch_cpu's table alone holds hundreds of thousands.
 */
export function readTorchExports(
  torch: Distribution | undefined,
  readings: readonly SharedObjectReading[],
): TorchExports | null {
  if (torch === undefined) return null;
  const needsTorch = readings.some(
    (reading) => reading.distribution !== torch.name && (reading.facts?.undefinedSymbols.length ?? 0) > 0,
  );
  if (!needsTorch) return null;
  const exports = new Map<string, Set<string>>();
  for (const entry of findFiles(torch, '.so')) {
    const name = basename(entry.path);
    if (!TORCH_LIBRARY.test(name) || exports.has(name)) continue;
    try {
      const path = join(torch.sitePackages, entry.path);
      const symbols = withFile(path, (reader) =>
        readDynamicSymbols(reader, readElf(reader), { undefined: false, exported: true }),
      );
      exports.set(name, symbols.exported);
    } catch {
      // An unreadable torch library shows in the kernel scan; its symbols are then unknown.
    }
  }
  return exports;
}

/** Opens `path` for random access by offset and closes it when `use` returns. */
export function withFile<T>(path: string, use: (reader: ByteReader) => T): T {
  // Non-blocking, so a named pipe listed as a library cannot hang the check; only regular files are read.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ElfFormatError('not a regular file', 'not-elf');
    const size = stat.size;
    const reader: ByteReader = {
      size,
      read(offset, length) {
        const wanted = Math.max(0, Math.min(length, size - offset));
        const buffer = Buffer.allocUnsafe(wanted);
        let filled = 0;
        while (filled < wanted) {
          const count = readSync(fd, buffer, filled, wanted - filled, offset + filled);
          if (count === 0) break;
          filled += count;
        }
        return buffer.subarray(0, filled);
      },
    };
    return use(reader);
  } finally {
    closeSync(fd);
  }
}

function describeReadError(error: unknown): string {
  if (isElfFormatError(error)) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'listed in RECORD but missing';
  if (code === 'EACCES') return 'not readable (permission denied)';
  return error instanceof Error ? error.message : String(error);
}
