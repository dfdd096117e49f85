import { readFile } from 'node:fs/promises';
import { readGpu, type GpuReading } from '../environment/index.js';
import { formatBytes } from '../progress/index.js';

export interface LeftoverGpuProcess {
  pid: number;
  name: string;
  memoryMiB: number | null;
}

/**
 * Processes that hold GPU memory though their parent is gone (reparented to PID 1): the workers of an
 * earlier start that outlived it. A new start would wait on their memory, or die of its lack.
 */
export async function findLeftoverGpuProcesses(
  env: NodeJS.ProcessEnv,
  read: () => Promise<GpuReading> = () => readGpu(env),
): Promise<LeftoverGpuProcess[]> {
  const reading = await read();
  if (reading.status !== 'ok') return [];
  const leftovers: LeftoverGpuProcess[] = [];
  for (const process of reading.processes) {
    if ((await parentOf(process.pid)) !== 1) continue;
    leftovers.push({ pid: process.pid, name: process.name, memoryMiB: process.usedMemoryMiB });
  }
  return leftovers;
}

/** The parent PID from /proc/PID/stat (the field after the parenthesised name); null when gone. */
async function parentOf(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const parent = Number(fields[1]);
    return Number.isInteger(parent) ? parent : null;
  } catch {
    return null;
  }
}

/** One line naming them, with PIDs and memory, and what to do. */
export function describeLeftovers(leftovers: readonly LeftoverGpuProcess[]): string {
  const named = leftovers
    .map(
      (process) =>
        `PID ${process.pid} ${process.name}${process.memoryMiB === null ? '' : ` (${formatBytes(process.memoryMiB * 1024 ** 2)})`}`,
    )
    .join(', ');
  return (
    `GPU memory is held by ${leftovers.length} process(es) left from an earlier start (their parent is gone): ${named}. ` +
    `The start will wait on that memory or fail for want of it; end them first: kill ${leftovers.map((process) => process.pid).join(' ')}`
  );
}
