import { ENGINE_PROGRESS, type EngineProgressSpec } from '../../progress/index.js';
import type { Engine } from '../../types/diagnosis.js';
import type { MonitorState } from '../monitor/start-monitor.js';

/**
 * Whether a line of a plain log file begins a new start of the server. A file has no invocation ids: a
 * start is known by the engine's first phase line (`vLLM API server version`) arriving when the current
 * start is already past that phase, or over. The first phase's own lines that follow it (`non-default
 * args`) stay in the start they open.
 */
export function beginsNewStart(
  line: string,
  current: MonitorState | null,
  engine: Engine | null,
  specs: readonly EngineProgressSpec[] = ENGINE_PROGRESS,
): boolean {
  const first = firstPhaseOpenedBy(line, engine, specs);
  return first !== undefined && opensNewStart(first, current);
}

/**
 * The engine whose first phase `line` is a line of (the first such spec), if any: the half of
 * beginsNewStart that reads only the line, so a caller following a chatty log asks for the current
 * start's state (a copy of its progress) only for the few lines that may begin one.
 */
export function firstPhaseOpenedBy(
  line: string,
  engine: Engine | null,
  specs: readonly EngineProgressSpec[] = ENGINE_PROGRESS,
): EngineProgressSpec | undefined {
  return specsFor(specs, engine).find(
    (spec) => spec.phases[0]?.lines.some((pattern) => pattern.test(line)) === true,
  );
}

/** The other half: whether a line of `first`'s first phase begins a new start after `current`. */
export function opensNewStart(first: EngineProgressSpec, current: MonitorState | null): boolean {
  if (current === null) return true;
  if (current.ended || current.failure !== null) return true;
  const phase = current.progress.phase;
  return phase !== null && phase.id !== first.phases[0]?.id;
}

/** The specs of one engine (all of them for an unknown one), kept per list: asked on every line. */
const bySpecs = new WeakMap<
  readonly EngineProgressSpec[],
  Map<Engine | null, readonly EngineProgressSpec[]>
>();

function specsFor(
  specs: readonly EngineProgressSpec[],
  engine: Engine | null,
): readonly EngineProgressSpec[] {
  let byEngine = bySpecs.get(specs);
  if (byEngine === undefined) {
    byEngine = new Map();
    bySpecs.set(specs, byEngine);
  }
  let own = byEngine.get(engine);
  if (own === undefined) {
    own = specs.filter((spec) => engine === null || spec.engine === engine);
    byEngine.set(engine, own);
  }
  return own;
}

/**
 * A start's name in a log file: its inode and byte offset, and a hash of its first line, since a restart
 * script that truncates the file begins every start at offset 0 (its first line carries the time or PID).
 */
export function nameLogStart(file: string, offset: number, firstLine: string): string {
  return `${file}:${offset}:${hashText(firstLine)}`;
}

/** FNV-1a, 32 bits, as hex: a short stable name, not a secret. */
export function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
