import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags for the whole run, set once before the CLI's code cache is read and never set back: V8 keys that
 * cache by its flags, so a run reads and writes it under the same ones. Node's modules loaded after this
 * are compiled without their embedded cache (same key), so bin.ts calls it after the standard streams are
 * made. A choice the user gave node on its command line is left alone. Only on V8 11 (Node 20), where both
 * were measured and the suite ran with them; a later V8 keeps its defaults until someone measures it.
 *
 * - `--no-regexp-tier-up`: each regex compiled to machine code at its first use rather than to bytecode
 *   first and again to machine code at its second. A diagnosis compiles some 400 regexes, most of them run
 *   more than once, so the bytecode was a compilation thrown away (callgrind, the bundled incident: regex
 *   compilation 132 -> 55 M instructions, the whole process 1,015 -> 939 M; BENCHMARKS.md). Turning tier-up
 *   back on after regexes were compiled without it crashed V8 (a 65,536-character line read after the flag
 *   was put back, SIGSEGV): it stays off.
 * - `--interrupt-budget` twice V8 11's default: TurboFan optimizes a function after twice the work, and
 *   compiles far less for about the same speed of the code that runs most (a 10 MB journal: TurboFan's
 *   compilation 269 -> 92 M instructions, the whole process 1,370 -> 1,214 M; paired, 0.91x the CPU at
 *   10 MB and 100 MB, 0.94x at 1 GB; 1.5x, 3x and 4x counted no better).
 */
export function setStartFlags(execArgv: readonly string[], v8Version: string = process.versions.v8): void {
  if (!v8Version.startsWith('11.')) return;
  if (!execArgv.some((arg) => /^--(?:no-)?regexp-/.test(arg))) setFlagsFromString('--no-regexp-tier-up');
  if (!execArgv.some((arg) => arg.startsWith('--interrupt-budget')))
    setFlagsFromString(`--interrupt-budget=${2 * 67_584}`);
}
