import { localRunner, type CommandRunner } from '../system/run-command.js';
import { findExecutable } from './find-executable.js';
import { parseGpuRows, parseProcessRows, type GpuDevice, type GpuProcess } from './parse-nvidia-smi.js';

export type GpuReading =
  | { status: 'absent' }
  | { status: 'failed'; reason: string }
  | { status: 'ok'; gpus: GpuDevice[]; processes: GpuProcess[] };

const GPU_FIELDS = 'name,compute_cap,driver_version,memory.used,memory.total';
const TIMEOUT_MS = 20_000;

/** Asks nvidia-smi for the GPUs and the processes holding memory. Never throws. */
export async function readGpu(
  env: NodeJS.ProcessEnv = process.env,
  runner: CommandRunner = localRunner,
): Promise<GpuReading> {
  // On another host (ssh) its own PATH decides; there a missing nvidia-smi is the shell's status 127.
  const program = runner.host === null ? findExecutable('nvidia-smi', env) : 'nvidia-smi';
  if (program === null) return { status: 'absent' };
  const smi = (args: string[]): ReturnType<CommandRunner['run']> =>
    runner.run(program, args, { timeoutMs: TIMEOUT_MS, env, maxBytes: 1024 * 1024 });
  try {
    let hasComputeCap = true;
    let result = await smi([`--query-gpu=${GPU_FIELDS}`, '--format=csv,noheader,nounits']);
    if (result.code === 127 && runner.host !== null) return { status: 'absent' };
    if (result.code !== 0 && /compute_cap/.test(result.stdout + result.stderr)) {
      // 470-series drivers do not know compute_cap.
      hasComputeCap = false;
      result = await smi([
        `--query-gpu=${GPU_FIELDS.replace('compute_cap,', '')}`,
        '--format=csv,noheader,nounits',
      ]);
    }
    if (result.code !== 0) return { status: 'failed', reason: firstLine(result.stdout + result.stderr) };
    const gpus = parseGpuRows(result.stdout, hasComputeCap);
    const apps = await smi([
      '--query-compute-apps=pid,process_name,used_memory',
      '--format=csv,noheader,nounits',
    ]);
    return { status: 'ok', gpus, processes: apps.code === 0 ? parseProcessRows(apps.stdout) : [] };
  } catch (error) {
    return { status: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.trim() || 'nvidia-smi failed without a message';
}
