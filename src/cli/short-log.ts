import { statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import type { SourceSpec } from '../sources/index.js';

/**
 * The most a log read whole can hold and still be over before V8's optimizing compiler pays for itself.
 * That compiler (TurboFan) compiles the per-line code on threads beside the main one while the lines go
 * by: on a log of a few thousand lines, the process ends before most of what it compiled runs.
 * Measured paired on whole runs (Node 20, two cores): the bundled incident (278 kB) 0.78x the CPU
 * without it, 1 MB journals 0.83-0.96x, 4 MB journals 1.06x (slower): a mebibyte is below the crossing.
 */
export const SHORT_LOG_BYTES = 1 << 20;

/**
 * Whether the whole input is one plain regular file of at most SHORT_LOG_BYTES (`readsInto`: the source
 * reads it straight into the diagnosis, which it does only for plain text in a regular file). A gzip file
 * of that size may unpack to many times it, and stdin, units and containers have no size to ask.
 */
export function isShortLog(spec: SourceSpec, readsInto: boolean): boolean {
  if (!readsInto || spec.kind !== 'files' || spec.paths.length !== 1) return false;
  const [path] = spec.paths;
  if (path === undefined || path === '-') return false;
  try {
    const info = statSync(path);
    return info.isFile() && info.size <= SHORT_LOG_BYTES;
  } catch {
    return false;
  }
}

/**
 * Runs `read` with V8's optimizing compiler off (its interpreter and baseline compiler still run). The flag
 * is put back after, before the code cache is written: V8 keys that cache by its flags (code-cache.ts),
 * and only `--turbofan` again (with, on V8 12, the flag it turned off by implication) gives back the key
 * a run without the change has (`--max-opt=1` would not: it turns TurboFan off as a side effect that
 * setting it back leaves). A choice the user gave node on its command line is left alone.
 */
export async function withBaselineCode<T>(read: () => Promise<T>): Promise<T> {
  if (process.execArgv.some((arg) => /^--(?:no-)?(?:turbofan|max-opt|osr-from-maglev)\b/.test(arg)))
    return read();
  setFlagsFromString('--no-turbofan');
  try {
    return await read();
  } finally {
    setFlagsFromString('--turbofan');
    // V8 12 (Node 22) turns --osr-from-maglev off with --no-turbofan and leaves it off after --turbofan:
    // without this the cache this run writes would carry other flags than the next run's, and be refused.
    if (V8_MAJOR >= 12) setFlagsFromString('--osr-from-maglev');
  }
}

/** V8 before 12 has no --osr-from-maglev, and names a flag it does not know on stderr. */
const V8_MAJOR = Number(process.versions.v8.split('.')[0]);
