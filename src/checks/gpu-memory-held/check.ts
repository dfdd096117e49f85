import { GPU_MEMORY_UTILIZATION, isMemoryHeld } from '../../environment/gpu-memory.js';
import { defineCheck, type Problem } from '../define-check.js';

/**
 * Memory already held on a GPU (often a previous server's EngineCore that outlived its parent). vLLM
 * refuses to start: "Free memory on device … is less than desired GPU memory utilization".
 */
export default defineCheck({
  id: 'gpu-memory-held',
  severity: 'error',
  title: 'GPU memory held by other processes',
  run: ({ gpu, gpuWaitedMs }) => {
    if (gpu?.status !== 'ok') return [];
    const held = gpu.gpus.filter(isMemoryHeld);
    if (held.length === 0) return [];
    const processes = gpu.processes.map(
      (p) => `${p.pid} ${p.name}${p.usedMemoryMiB === null ? '' : ` (${p.usedMemoryMiB} MiB)`}`,
    );
    const devices = held.map(
      (d) => `GPU ${d.index} ${d.name}: ${d.memoryUsedMiB ?? '?'} of ${d.memoryTotalMiB ?? '?'} MiB in use`,
    );
    const free = held[0];
    const problem: Problem = {
      detail:
        `${devices.join('; ')}${gpuWaitedMs === null ? '' : `, still after waiting ${Math.round(gpuWaitedMs / 1000)} s`}. The server wants ${Math.round(GPU_MEMORY_UTILIZATION * 100)}% free at start and stops with ` +
        `"Free memory on device … (${freeGiB(free?.memoryTotalMiB, free?.memoryUsedMiB)} GiB) on startup is less than desired GPU memory utilization".` +
        (processes.length > 0 ? ` Processes on the GPU: ${processes.join(', ')}.` : ''),
      fix:
        processes.length > 0
          ? `stop them (kill ${gpu.processes.map((p) => p.pid).join(' ')}) or wait for them: vigil check --wait-gpu-free 120`
          : 'wait for the memory to be released (vigil check --wait-gpu-free 120), or lower --gpu-memory-utilization',
      packages: [],
    };
    return [problem];
  },
});

function freeGiB(totalMiB: number | null | undefined, usedMiB: number | null | undefined): string {
  const total = (totalMiB ?? 0) / 1024;
  const free = total - (usedMiB ?? 0) / 1024;
  return `${free.toFixed(2)}/${total.toFixed(2)}`;
}
