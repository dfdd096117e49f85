import { setFlagsFromString } from 'node:v8';

/**
 * Has V8 compile each regex to machine code at its first use (`--no-regexp-tier-up`), rather than to
 * bytecode first and again to machine code at its second: a diagnosis compiles some 400 regexes, most of
 * them run more than once, so the bytecode was a compilation thrown away (callgrind, the bundled incident:
 * regex compilation 132 -> 55 M instructions, the whole process 1,015 -> 939 M; BENCHMARKS.md).
 *
 * Set once, before the CLI's code cache is read, and never set back: V8 keys that cache by its flags, so a
 * run reads and writes it under the same ones; and turning tier-up back on after regexes were compiled
 * without it crashed V8 (a 65,536-character line rendered after the flag was put back, SIGSEGV). Node's
 * modules loaded after this are compiled without their embedded cache (same key), so bin.ts calls it after
 * the standard streams are made. A choice the user gave node on its command line is left alone.
 */
export function compileRegexpsOnce(execArgv: readonly string[]): void {
  if (execArgv.some((arg) => /^--(?:no-)?regexp-/.test(arg))) return;
  setFlagsFromString('--no-regexp-tier-up');
}
