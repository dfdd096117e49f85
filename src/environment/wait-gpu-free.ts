import { isMemoryHeld } from './gpu-memory.js';
import { readGpu, type GpuReading } from './read-gpu.js';

export interface WaitGpuFreeOptions {
  /** How often to ask nvidia-smi (default 1000 ms). */
  pollMs?: number;
  /** Replaceable for tests; defaults to nvidia-smi. */
  readGpu?: () => Promise<GpuReading>;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  env?: NodeJS.ProcessEnv;
}

export interface WaitGpuFreeResult {
  /** `free`: every GPU has the memory the engine wants; `timeout`: still held; `no-gpu`: nothing to wait for. */
  outcome: 'free' | 'timeout' | 'no-gpu';
  waitedMs: number;
  reading: GpuReading;
}

/**
 * Waits up to `seconds` for memory held by other processes (a previous server's EngineCore, say) to be
 * released, as the incident's ExecStartPre did, so a restart does not die on "Free memory on device …".
 */
export async function waitGpuFree(
  seconds: number,
  options: WaitGpuFreeOptions = {},
): Promise<WaitGpuFreeResult> {
  const read = options.readGpu ?? (() => readGpu(options.env));
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 1000;
  const started = now();
  const deadline = started + Math.max(0, seconds) * 1000;
  for (;;) {
    const reading = await read();
    if (reading.status !== 'ok') return { outcome: 'no-gpu', waitedMs: now() - started, reading };
    if (!reading.gpus.some(isMemoryHeld)) return { outcome: 'free', waitedMs: now() - started, reading };
    const left = deadline - now();
    if (left <= 0) return { outcome: 'timeout', waitedMs: now() - started, reading };
    await sleep(Math.min(pollMs, left));
  }
}
