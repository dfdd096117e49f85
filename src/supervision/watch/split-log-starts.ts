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
  const own = specsFor(specs, engine);
  // Most lines are none of them: one test of all their patterns at once rules those out.
  if (own.anyFirst !== null && !own.anyFirst.test(line)) return undefined;
  return own.specs.find((spec) => spec.phases[0]?.lines.some((pattern) => pattern.test(line)) === true);
}

/** The other half: whether a line of `first`'s first phase begins a new start after `current`. */
export function opensNewStart(first: EngineProgressSpec, current: MonitorState | null): boolean {
  if (current === null) return true;
  if (current.ended || current.failure !== null) return true;
  const phase = current.progress.phase;
  return phase !== null && phase.id !== first.phases[0]?.id;
}

/** The specs of one engine (all of them for an unknown one), and one regex of their first phases' lines. */
interface FirstPhases {
  specs: readonly EngineProgressSpec[];
  /** Matches where one of those lines' patterns matches; null where they cannot be joined as they are. */
  anyFirst: RegExp | null;
}

/** Kept per list of specs and engine: asked on every line. */
const bySpecs = new WeakMap<readonly EngineProgressSpec[], Map<Engine | null, FirstPhases>>();

function specsFor(specs: readonly EngineProgressSpec[], engine: Engine | null): FirstPhases {
  let byEngine = bySpecs.get(specs);
  if (byEngine === undefined) {
    byEngine = new Map();
    bySpecs.set(specs, byEngine);
  }
  let own = byEngine.get(engine);
  if (own === undefined) {
    const chosen = specs.filter((spec) => engine === null || spec.engine === engine);
    own = { specs: chosen, anyFirst: joinPatterns(chosen.flatMap((spec) => spec.phases[0]?.lines ?? [])) };
    byEngine.set(engine, own);
  }
  return own;
}

/**
 * One regex that matches where any of `patterns` does: their alternation, where it means just that. Not
 * for patterns with flags (each would need its own), nor with groups that a joined source would number or
 * name anew (a backreference, a named group).
 */
function joinPatterns(patterns: readonly RegExp[]): RegExp | null {
  if (patterns.length === 0) return null;
  if (patterns.some((pattern) => pattern.flags !== '' || /\\[1-9k]|\(\?</.test(pattern.source))) return null;
  return new RegExp(patterns.map((pattern) => `(?:${pattern.source})`).join('|'));
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
