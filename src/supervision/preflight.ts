import type { CliIo } from '../cli/io.js';

export interface PreflightOptions {
  io: CliIo;
  color: boolean;
  /** Start even when the check finds errors. */
  force: boolean;
}

export interface PreflightVerdict {
  proceed: boolean;
}

/** Runs `vigil check` on the environment before the start (wired to src/environment once it lands). */
export async function runPreflight(_options: PreflightOptions): Promise<PreflightVerdict> {
  return Promise.resolve({ proceed: true });
}
