import { setFlagsFromString } from 'node:v8';

/**
 * V8 flags for the whole run, set once before the CLI's code cache is read and never set back: V8 keys that
 * cache by its flags, so a run reads and writes it under the same ones. Node's modules loaded after this
 * are compiled without their embedded cache (same key), so bin.ts calls it after the standard streams are
 * made. A choice the user gave node on its command line is left alone. Only on V8 11 (Node 20), where it
 * was measured and the suite ran with it; a later V8 keeps its defaults until someone measures it.
 *
 * - Not `--no-regexp-tier-up`, though it spared a third of the regex compilation (BENCHMARKS.md): set at
 *   run time, after node and its loaders had compiled regexes with tier-up on, V8 crashed in a regex's
 *   machine code (SIGSEGV in NativeRegExpMacroAssembler::Execute: in 2 of 5 runs of a test that starts six
 *   CLIs at once, and in a CI run); turning it back on mid-run had crashed it too. Regex flags are V8's to set
 *   before any regex is compiled: on node's command line, or not at all.
 * - `--interrupt-budget` twice V8 11's default: TurboFan optimizes a function after twice the work, and
 *   compiles far less for about the same speed of the code that runs most (a 10 MB journal: TurboFan's
 *   compilation 269 -> 92 M instructions, the whole process 1,370 -> 1,214 M; paired, 0.91x the CPU at
 *   10 MB and 100 MB, 0.94x at 1 GB; 1.5x, 3x and 4x counted no better).
 */
export function setStartFlags(execArgv: readonly string[], v8Version: string = process.versions.v8): void {
  if (!v8Version.startsWith('11.')) return;
  if (!execArgv.some((arg) => arg.startsWith('--interrupt-budget')))
    setFlagsFromString(`--interrupt-budget=${2 * 67_584}`);
}
