import type { Engine } from '../types/diagnosis.js';
import type { EngineProgressSpec, FactName } from './define-engine-progress.js';
import { ENGINE_PROGRESS } from './engines/index.js';

export interface PhaseVisit {
  id: string;
  label: string;
  /** Milliseconds since the start, when the first line of the phase arrived. */
  atMs: number;
}

export interface ProgressState {
  engine: Engine | null;
  /** The milestone reached last, or null before the first one. */
  phase: PhaseVisit | null;
  /** Every milestone reached, in order. */
  visits: PhaseVisit[];
  facts: Partial<Record<FactName, number>>;
  /** Milliseconds since the start when the server became ready (its log line or the health probe). */
  readyAtMs: number | null;
  /** Milliseconds since the start of the last line seen. */
  lastLineAtMs: number | null;
  lines: number;
}

export interface ProgressTracker {
  /** Feeds one line (without its newline) seen `atMs` after the start; true when the state changed. */
  push(line: string, atMs: number): boolean;
  /** Marks the server ready from outside the log (the health probe); true when it was not ready yet. */
  markReady(atMs: number): boolean;
  state(): ProgressState;
}

export interface TrackProgressOptions {
  /** The engine when known; otherwise it is recognised from `command`, then from the log. */
  engine?: Engine | null;
  /** The command line that started the server, program first. */
  command?: readonly string[];
  /** Where the log's ready line counts as ready (false when a health probe decides). */
  readyFromLog?: boolean;
  specs?: readonly EngineProgressSpec[];
}

/** The engine a command line starts, from each spec's `command` pattern. */
export function engineOfCommand(command: readonly string[], specs = ENGINE_PROGRESS): Engine | null {
  const text = command.join(' ');
  return specs.find((spec) => spec.command.test(text))?.engine ?? null;
}

/**
 * Follows a start-up through its phases, line by line. Pure: the caller passes each line's time. Phases
 * only move forward, because tensor-parallel ranks print the same milestones one after another.
 */
export function createProgressTracker(options: TrackProgressOptions = {}): ProgressTracker {
  const specs = options.specs ?? ENGINE_PROGRESS;
  const readyFromLog = options.readyFromLog ?? true;
  const known =
    options.engine ?? (options.command === undefined ? null : engineOfCommand(options.command, specs));
  let spec: EngineProgressSpec | null = specs.find((candidate) => candidate.engine === known) ?? null;
  let phaseIndex = -1;
  const state: ProgressState = {
    engine: spec?.engine ?? null,
    phase: null,
    visits: [],
    facts: {},
    readyAtMs: null,
    lastLineAtMs: null,
    lines: 0,
  };

  function takeFacts(match: RegExpExecArray): boolean {
    const groups = match.groups;
    if (groups === undefined) return false;
    let changed = false;
    for (const [name, raw] of Object.entries(groups)) {
      if (raw === undefined) continue;
      const value = Number(raw.replaceAll(',', ''));
      if (!Number.isFinite(value) || state.facts[name as FactName] === value) continue;
      state.facts[name as FactName] = value;
      changed = true;
    }
    return changed;
  }

  function enter(index: number, atMs: number): void {
    const phase = spec?.phases[index];
    if (phase === undefined) return;
    phaseIndex = index;
    const visit = { id: phase.id, label: phase.label, atMs };
    state.phase = visit;
    state.visits.push(visit);
  }

  function markReady(atMs: number): boolean {
    if (state.readyAtMs !== null) return false;
    state.readyAtMs = atMs;
    return true;
  }

  return {
    push(line, atMs) {
      state.lines += 1;
      state.lastLineAtMs = atMs;
      let changed = false;
      if (spec === null) {
        spec = specs.find((candidate) => candidate.detect.some((pattern) => pattern.test(line))) ?? null;
        if (spec === null) return false;
        state.engine = spec.engine;
        changed = true;
      }
      const phases = spec.phases;
      for (let index = Math.max(phaseIndex, 0); index < phases.length; index += 1) {
        const phase = phases[index];
        if (phase === undefined) break;
        for (const pattern of phase.lines) {
          const match = pattern.exec(line);
          if (match === null) continue;
          if (index > phaseIndex) {
            enter(index, atMs);
            changed = true;
          }
          changed = takeFacts(match) || changed;
          break;
        }
      }
      for (const pattern of spec.facts) {
        const match = pattern.exec(line);
        if (match !== null) changed = takeFacts(match) || changed;
      }
      if (readyFromLog && state.readyAtMs === null && spec.ready.some((pattern) => pattern.test(line))) {
        changed = markReady(atMs) || changed;
      }
      return changed;
    },
    markReady,
    state: () => state,
  };
}
