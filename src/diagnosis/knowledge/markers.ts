import { anyOf } from './any-of.js';

/**
 * The start markers only a server prints (not an offline run of the same engine, which ends by exiting):
 * vLLM's API server, SGLang's and TGI's launch arguments, llama.cpp's server, Ollama's listener.
 */
const SERVER_BANNERS: readonly RegExp[] = [
  /vLLM API server version \S+/,
  // Its later releases draw the name in block letters, the version beside them (`█▄█▀ █ ... version 0.21.0`).
  /[█▄▀] {2}version \d+\.\d+\S*\s*$/,
  /^server_args=ServerArgs\(/,
  /^Args \{/,
  /^starting llama server|^Listening on .*\(version /,
];

/**
 * systemd's start line when only a unit's description is shown (`journalctl -o cat`: `Starting vLLM
 * server...`). The description names a server or a service; a test driver's `Starting gsm8k test...` or
 * a benchmark's `Starting warmup with 1 sequences...` starts no server.
 */
const DESCRIPTION_START =
  /^Starting (?=.*\b(?:[Ss]erver|[Ss]ervice|[Dd]aemon|API|vLLM|vllm|SGLang|sglang|Ollama|ollama|llama|TGI|[Ii]nference)\b).+\.\.\.$/;

/**
 * Lines that mark where a start begins and where the server became ready. A log may hold several starts
 * (systemd restarts); the diagnosis looks at the failing one alone.
 */
export const START_MARKERS: readonly RegExp[] = [
  /^Starting .+\.service/,
  DESCRIPTION_START,
  ...SERVER_BANNERS,
  /^Initializing (?:a V1 LLM engine|an LLM engine) \(v/,
  /^main: build = /,
  /^build: \d+ \(\w+\)/,
];

export const READY_MARKERS: readonly RegExp[] = [
  /Application startup complete/,
  /Uvicorn running on/,
  /The server is fired up and ready to roll/,
  /server is listening on|HTTP server listening|all slots are idle|(?:^|\s)(?:\w+: )?listening on https?:\/\//,
  /llama runner started in/,
  /^Connected$|Invalid hostname, defaulting to|Setting max batch total tokens to \d+/,
  /Serving on|TurboMind .*(?:started|ready)/,
  // vLLM lists its routes once its engine is up, as its HTTP server starts (where uvicorn's own lines are off).
  /^Available routes are:/,
];

/** Lines that say the server died, so a traceback after readiness is a crash, not a failed request. */
export const DEATH_MARKERS: readonly RegExp[] = [
  /EngineDeadError|Engine loop is dead|EngineCore encountered a fatal error|Background loop has errored/,
  /Main process exited, code=(?:exited|killed|dumped), status=(?!0\/)/,
  // Not a word quoted in code (a deprecation warning's source line: `@app.on_event("shutdown")`).
  /Shutting down|(?<!["'])shutdown(?!["'])|Terminating|exiting|has terminated|died unexpectedly|scheduler is dead/i,
  // `Aborted request ...` is a client going away, not the server.
  /Segmentation fault|core dumped|Killed$|Aborted(?: \(core dumped\))?$/,
];

/**
 * What a process prints as it exits: Python's resource tracker on the semaphores a dying server left
 * behind, PyTorch on a process group nobody destroyed. After a server's banner, before readiness, with no
 * stop asked for, the start ended there (an offline run ends so when it is done); the match is where the
 * words worth quoting begin.
 */
export const EXIT_MARKERS: readonly RegExp[] = [
  /(?:resource_tracker: )?There appear to be \d+ leaked (?:semaphore|shared_memory) objects? to clean up at shutdown/,
  /(?:WARNING: )?(?:destroy_process_group\(\) was not called before program exit|process group has NOT been destroyed before we destruct)/,
];

/** Warnings that are sometimes the only trace of a cause; candidates only, never fatal alone. */
export const CAUSE_HINTS: readonly RegExp[] = [
  /Failed to import from \S+ with/,
  // A native module that failed to load (vllm-ascend's `Failed to import vllm_ascend_C:libvllm_ascend_kernels.so:
  // cannot open shared object file`, logged as it goes on without the module's operators).
  /(?:Failed to|Could not|Unable to) import \S+.*\bcannot open shared object file\b/,
  /Ignore import error when loading/,
  /No module named/,
  /undefined symbol/,
  /is not supported|not supported on|unsupported/i,
  /too old|is not compatible|not compatible with/i,
  /Exception happens when checking/,
  /compute capability/i,
  /gpu_memory_utilization|Available KV cache memory: -/,
  /out of memory|OOM/,
  /cannot find|could not find|not found/i,
];

export const isStartMarker = anyOf(START_MARKERS);

/**
 * Which start marker a line is (its index in START_MARKERS), or -1. systemd's description-only start line
 * has no level of its own: a logger's `INFO ... Starting profiler after delay...` starts nothing.
 */
export function startMarkerOf(text: string, level: string | null = null): number {
  const mark = isStartMarker(text) ? START_MARKERS.findIndex((pattern) => pattern.test(text)) : -1;
  return level !== null && START_MARKERS[mark] === DESCRIPTION_START ? -1 : mark;
}
export const isReadyMarker = anyOf(READY_MARKERS);
const saysDeath = anyOf(DEATH_MARKERS);
/** What says it ended well is no death (a test driver's `Monitoring completed successfully. Script exiting.`). */
const ENDED_WELL = /\bsuccessfully\b/i;
export const isDeathMarker = (text: string): boolean => saysDeath(text) && !ENDED_WELL.test(text);
export const isCauseHint = anyOf(CAUSE_HINTS);

/**
 * A server printing its settings (`non-default args: {... 'gpu_memory_utilization': 0.85 ...}`): it names
 * options, which says nothing wrong by itself; only a signature that reads a setting in it makes it a cause.
 * So does its report of what it measured (vLLM's `Memory profiling results: total_gpu_memory=...`).
 */
const SETTINGS_DUMP =
  /\bnon-default args: \{|\bargs: Namespace\(|\bserver_args=ServerArgs\(|\bMemory profiling results: /;
export const isSettingsDump = (text: string): boolean => SETTINGS_DUMP.test(text);

/** Whether start marker `mark` (startMarkerOf) is a server's banner. */
export function isServerBanner(mark: number): boolean {
  return SERVER_BANNERS.includes(START_MARKERS[mark] as RegExp);
}

/** Where the exit words of a line begin (EXIT_MARKERS), or -1. */
export function exitMarkIn(text: string): number {
  for (const pattern of EXIT_MARKERS) {
    const found = pattern.exec(text);
    if (found !== null) return found.index;
  }
  return -1;
}
