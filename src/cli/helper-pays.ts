import { availableParallelism, loadavg } from 'node:os';

/**
 * Whether a long log's prescan helper thread (system/prescan-thread.ts) is worth starting: only when a core
 * is idle for it. The helper searches blocks the session would search itself, so it shortens the wall
 * time only on a core nobody else wants; elsewhere its own start (a Node worker, its modules, its
 * WebAssembly) and memory are paid for nothing. Measured paired on two cores at a load average of 2-4
 * (BENCHMARKS.md), without the helper: 100 MB 0.71x the CPU and 0.78x the wall time, 1 GB 0.80x and 1.03x,
 * 4 GB 0.93x and 0.93x, peak RSS 20 MiB less; the same JSON. VIGIL_PRESCAN_HELPER=1 starts it whatever
 * the load, =0 never; =prove starts it and leaves it the first block (provesHelper), so that its run shows
 * however busy the machine.
 */
export function helperPays(
  env: NodeJS.ProcessEnv,
  load: number = loadavg()[0] ?? 0,
  cores: number = availableParallelism(),
): boolean {
  if (env.VIGIL_PRESCAN_HELPER === '1' || provesHelper(env)) return true;
  if (env.VIGIL_PRESCAN_HELPER === '0') return false;
  // The 1-minute load average counts the threads that ran or waited to run: below cores - 1, the session
  // leaves at least one core idle on average.
  return load < cores - 1;
}

/**
 * Whether the session leaves the helper its first block, waiting for it: a test's proof that the helper's
 * code runs where it is embedded (the standalone binary), which a race with the session must not decide.
 */
export function provesHelper(env: NodeJS.ProcessEnv): boolean {
  return env.VIGIL_PRESCAN_HELPER === 'prove';
}
