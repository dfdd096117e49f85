import type { Engine } from '../types/diagnosis.js';

/**
 * Values a phase line can carry. A regex names them with named groups (`(?<shard>\d+)`); the tracker
 * keeps the last value of each, as a number (thousands separators dropped).
 */
export const FACTS = {
  shard: 'checkpoint shard loaded so far',
  shards: 'checkpoint shards in all',
  weightsGiB: 'GiB of weights on each GPU',
  weightsSeconds: 'seconds the weights took to load',
  kvCacheGiB: 'GiB left for the KV cache',
  kvCacheTokens: 'tokens the KV cache holds',
  gpuBlocks: 'KV cache blocks on each GPU',
  graphSeconds: 'seconds CUDA graph capture took',
  layersOffloaded: 'layers offloaded to the GPU',
  layers: 'layers in the model',
  shardSeconds: 'seconds a shard took to start',
  downloadedBytes: "bytes of weights in the model's Hugging Face cache downloads so far",
} as const;
export type FactName = keyof typeof FACTS;

export interface PhaseSpec {
  /** Stable kebab-case id; the history of earlier starts is keyed by it. */
  id: string;
  /** What the progress line shows: a milestone the start-up has reached. */
  label: string;
  /** Any of these lines means the start-up has reached this phase. */
  lines: readonly RegExp[];
}

/** How one engine's start-up shows in its log: declared as data, one file per engine. */
export interface EngineProgressSpec {
  engine: Engine;
  /** Recognises the engine from the command line that starts it (`vllm serve ...`). */
  command: RegExp;
  /** Lines only this engine prints, to recognise it from the log when the command says nothing. */
  detect: readonly RegExp[];
  /** Milestones in start-up order. A phase is only ever entered forward: ranks repeat lines. */
  phases: readonly PhaseSpec[];
  /** Lines that carry facts in any phase (named groups from FACTS). */
  facts: readonly RegExp[];
  /** The log's own line that says the server accepts requests. */
  ready: readonly RegExp[];
  /**
   * Lines that say the engine died while its API process may go on answering `/health`: the start (or the
   * serving) is over whatever the process does next.
   */
  death?: readonly RegExp[];
  /**
   * Milliseconds a phase may go without progress before it counts as stalled, where no earlier start of
   * the same command says better (the history). Phases not named get DEFAULT_STALL_MS.
   */
  stallMs?: Readonly<Record<string, number>>;
  /** The OpenAI-style model list the server answers once it can serve, e.g. `/v1/models`. */
  modelList?: string;
}

/** How long any phase may go without progress when neither history nor the engine says otherwise. */
export const DEFAULT_STALL_MS = 15 * 60_000;

/** Identity function that gives a spec its type (citty's defineCommand pattern). */
export function defineEngineProgress(spec: EngineProgressSpec): EngineProgressSpec {
  return spec;
}
