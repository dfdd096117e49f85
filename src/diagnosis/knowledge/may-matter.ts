import { compileLiteralSearch, type LiteralSearch } from '../search/literal-automaton.js';
import { requiredLiterals } from '../search/required-literals.js';
import { anyOf, passAnswers } from './any-of.js';

/** Lines worth a closer look; everything else is chatter. One test instead of dozens per line. */
export const TRIGGER =
  /error|fail|exception|traceback|what\(\)|terminate|killed|abort|fault|panic|errno|warn|not supported|unsupported|no module|undefined|too old|compatib|capabilit|memory|oom|cannot|could not|couldn't|unable|not found|signal|illegal|fatal|invalid|denied|refused|timed? ?out|gated|unauthori[sz]ed|nvml|driver|gpu_memory|kv cache|bind|in use|no space|killed|unknown|bus error|assert|kernel image|misaligned|launch failure|validation|no platform|sigsegv|sigbus|sigill|sigabrt|violation|died unexpectedly|library not loaded|corrupt| dead|no such file|NVRM|fallen off|exec format|double free|dumped core|instead of \w+_SUCCESS|instead of "Success"|free\(\): |malloc\(\): |smashing detected|overflow detected|radv\/amdgpu|exit code|exit status|exited with|exitcode|status=\d+\/|does not support|requires flash|unreachable|\| 50[0-4] \||\.(?:cpp|cc|cu|c):\d+: |^(?:error)?: ?[A-Z]/i;

// Literal heads of the start, ready and death markers, of the cause hints (markers.ts), of stops (shutdown.ts) and of
// the noise that warnings at a parsed level carry (noise.ts: llama.cpp's W lines): literals keep
// this test cheap on every line. A test reads every fixture both ways to keep it a superset.
export const MARKERS =
  /Starting|Started|forcing job termination|Available routes|Stopping|Stopped|Finished server|Server stopped|Shutdown|Deactivated|SIG|raceful|Ctrl|API server|Initializing|server_args=|Args \{|build|Listening|listening|startup complete|Uvicorn running|fired up|slots are idle|runner started|Connected|hostname|max batch total tokens|Serving on|TurboMind|Dead|dead|errored|exited|Shutting|shutting|shutdown|Terminating|exiting|terminated|died|Segmentation|core dumped|Killed|Aborted|import|symbol|supported|too old|ompatible|happens|apability|gpu_memory|KV cache|memory|OOM|find|control-looking|special_eos_id|pre-tokenizer|UNAVAILABLE: | {2}version /;
// llama.cpp's timestamped lines give their level as a letter (`4.45.745.058 E ggml_vulkan: device lost`), and
// so does PyTorch's glog-style header after its rank (`[rank0]:E0731 16:03:52.1 ...`): an error line whatever
// its words. NCCL's `NCCL INFO file.cc:114 -> 2` lines trace an error's return up its
// stack: read, they are no sign the process went on past the `NCCL WARN` before them; nor are the frames a
// native error prints after its message (runtimes/cpp/stack-frames.ts).
export const STRUCTURE =
  /Traceback|File "|\.service|Interrupt|Exit|Iteration|Group|what\(\)|^\s*\^|^Copy$|\.\d{3} [EW] |\]:E\d{3,4} |NCCL INFO .* -> \d+\s*$|^\s*frame #\d+: |^\s*#\d+\s+0x[0-9a-f]+ in |^\s*\d+# 0x[0-9A-Fa-f]+ in |\+0x[0-9a-f]+\)\s*\[0x/;

/**
 * Any caret: `^\s*\^` takes Unicode spaces for `\s`, which read as Latin-1 bytes are not spaces. A caret
 * is rare in logs, so the block search simply looks for one.
 */
export const CARET = /\^/;

/** What a log copied from a web console adds between events (parsing/console-copy-filter.ts). */
export const CONSOLE_ARTIFACT = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;

/**
 * Whether a raw line could matter to the diagnosis at all: a failure word, a traceback, a start, ready or
 * death marker, or systemd speaking of a unit. A superset by design; the rest is chatter.
 */
export function mayMatter(raw: string): boolean {
  // Most lines read in the middle of a long log are error lines, and `error` in any case is TRIGGER's
  // first word: that one test decides them at a twentieth of what the word pass costs on a whole line.
  if (ERROR_WORD.test(raw)) return true;
  // The automaton rules out most lines at a fraction of the patterns' cost; they decide the rest. Once
  // anyOf's own pass over the lists' words answers, it does the same: the automaton would be a second pass.
  return (passAnswers() || MAY_MATTER_IN_BLOCK.test(raw)) && matchesPatterns(raw);
}

/** TRIGGER's first alternative: a line that holds it matches TRIGGER, so it may matter. */
const ERROR_WORD = /error/i;

const matchesPatterns = anyOf([TRIGGER, STRUCTURE, MARKERS]);

/** What the block search looks for the literals of (the build reads them: scripts/build-literals.mjs). */
export const BLOCK_PATTERNS: readonly RegExp[] = [TRIGGER, STRUCTURE, MARKERS, CONSOLE_ARTIFACT, CARET];

/**
 * The same test for a whole block of lines at once, as bytes: the literals that each of its patterns
 * cannot match without, case folded, in one automaton. Still a superset; a regex of all of them ran six
 * times slower. Built when first needed.
 */
export const MAY_MATTER_IN_BLOCK: LiteralSearch = lazySearch(() =>
  BLOCK_PATTERNS.flatMap((pattern) => requiredLiterals(pattern.source)),
);

function lazySearch(literals: () => string[]): LiteralSearch {
  let search: LiteralSearch | null = null;
  const built = (): LiteralSearch => (search ??= compileLiteralSearch(literals()));
  return {
    find: (bytes, from, to) => built().find(bytes, from, to),
    test: (line) => built().test(line),
  };
}

/**
 * Before the log's end, whatever the server was doing, what is looked for is a sign of a failure, a start
 * or a stop: a traceback or an exception, an error (a level, a CUDA or C++ error), systemd speaking of the
 * unit, a segmentation fault, a shutdown. A month of a log is mostly chatter, so this short list is all
 * that is looked for there; what follows a start or a death, and the log's last stretch, are read closely
 * (reading-policy.ts). Case-sensitive literals, found where they begin, searched eight at a time
 * (search/block-sieve.ts): the two spellings of `error` come eight apart and so share a bucket.
 */
export const SIGNS_OF_DEATH: readonly string[] = [
  'Error',
  'Traceback',
  'Exception',
  'ERROR',
  'CRITICAL',
  'systemd[',
  'Segmentation fault',
  'Shutting down',
  'error',
  // PyTorch's glog-style ERROR lines after its rank (`[rank0]:E0731 16:03:52.115000 ...`): a traceback or a
  // kernel's source it logs at ERROR, whatever their words.
  ']:E',
];

/** Signs that a line at INFO or DEBUG level only quotes (a prompt, a retry notice). */
export const QUOTABLE_SIGNS: ReadonlySet<string> = new Set([
  'Error',
  'error',
  'Exception',
  'ERROR',
  'CRITICAL',
]);

/** A line's level, when the server wrote it as reporting rather than failing. */
export const REPORTING_LEVEL = /\b(?:INFO|DEBUG)\b|\blevel=(?:info|debug)\b|"level": ?"(?:info|debug)"/;
