import type { ProgressState } from './track-progress.js';

/** `8m51s`, `45s`, `1h02m`, `0.4s`: the way the progress line and the reports say durations. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '0s';
  if (ms < 10_000 && ms % 1000 !== 0) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}

/** The facts worth showing beside a phase: `shard 3/14`, `weights 7.12 GiB in 2.4s`, `KV cache 12.29 GiB`. */
export function describeFacts(state: ProgressState): string[] {
  const facts = state.facts;
  const parts: string[] = [];
  const phase = state.phase?.id ?? '';
  if (facts.downloadedBytes !== undefined && state.readyAtMs === null && DOWNLOAD_PHASES.has(phase)) {
    parts.push(`downloaded ${formatBytes(facts.downloadedBytes)}`);
  }
  if (phase === 'loading-weights' && facts.shard !== undefined && facts.shards !== undefined) {
    parts.push(`shard ${facts.shard}/${facts.shards}`);
  }
  if (phase === 'loading-weights' && facts.layersOffloaded !== undefined && facts.layers !== undefined) {
    parts.push(`${facts.layersOffloaded}/${facts.layers} layers on GPU`);
  }
  if (WEIGHT_PHASES.has(phase) && facts.weightsGiB !== undefined) {
    const took =
      facts.weightsSeconds === undefined ? '' : ` in ${formatDuration(facts.weightsSeconds * 1000)}`;
    parts.push(`weights ${facts.weightsGiB.toFixed(2)} GiB${took}`);
  }
  if (KV_PHASES.has(phase)) {
    if (facts.kvCacheGiB !== undefined) parts.push(`KV cache ${facts.kvCacheGiB.toFixed(2)} GiB`);
    if (facts.kvCacheTokens !== undefined) parts.push(`${groupDigits(facts.kvCacheTokens)} KV tokens`);
  }
  return parts;
}

/**
 * `421,888`: what `toLocaleString('en-US')` writes for a whole number, without it: its first call loads
 * ICU's number formats, about 12 ms of every `vigil run` that shows a KV cache's size.
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let grouped = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return n < 0 ? `-${grouped}` : grouped;
}

const DOWNLOAD_PHASES = new Set(['', 'arguments', 'model-config', 'download', 'loading-weights']);
const WEIGHT_PHASES = new Set(['weights-loaded', 'memory-profiling']);
const KV_PHASES = new Set(['kv-cache', 'cuda-graphs', 'warmup']);

/** `512 MiB`, `1.25 GiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 ** 2) return `${Math.round(bytes / 1024)} KiB`;
  if (bytes < 1024 ** 3) return `${Math.round(bytes / 1024 ** 2)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}

/** One line: `loading weights · shard 3/14 · 1m02s · ETA 7m49s`. */
export function formatProgressLine(
  state: ProgressState,
  elapsedMs: number,
  remainingMs: number | null,
): string {
  const parts = [state.phase?.label ?? (state.engine === null ? 'starting' : `starting ${state.engine}`)];
  parts.push(...describeFacts(state));
  parts.push(formatDuration(elapsedMs));
  if (remainingMs !== null)
    parts.push(remainingMs > 0 ? `ETA ${formatDuration(remainingMs)}` : 'ETA overdue');
  return parts.join(' · ');
}
