/** Parsing of `nvidia-smi --format=csv,noheader,nounits` output. Pure. */

export interface GpuDevice {
  index: number;
  name: string;
  /** `9.0`, or null when the driver cannot report it (470 series). */
  computeCapability: string | null;
  driverVersion: string;
  /** MiB; null where the GPU reports [N/A] (unified memory parts such as GB10). */
  memoryUsedMiB: number | null;
  memoryTotalMiB: number | null;
}

export interface GpuProcess {
  pid: number;
  name: string;
  usedMemoryMiB: number | null;
}

/** Rows of `--query-gpu=name,compute_cap,driver_version,memory.used,memory.total` (compute_cap optional). */
export function parseGpuRows(text: string, hasComputeCap: boolean): GpuDevice[] {
  return splitRows(text).map((fields, index) => {
    const [name = '', ...rest] = fields;
    const [cap, driver = '', used, total] = hasComputeCap ? rest : [undefined, ...rest];
    return {
      index,
      name,
      computeCapability: cap === undefined || !/^\d+\.\d+$/.test(cap) ? null : cap,
      driverVersion: driver,
      memoryUsedMiB: parseMiB(used),
      memoryTotalMiB: parseMiB(total),
    };
  });
}

/** Rows of `--query-compute-apps=pid,process_name,used_memory`. */
export function parseProcessRows(text: string): GpuProcess[] {
  return splitRows(text)
    .map(([pid = '', name = '', used]) => ({
      pid: Number.parseInt(pid, 10),
      name,
      usedMemoryMiB: parseMiB(used),
    }))
    .filter((process) => Number.isFinite(process.pid));
}

function splitRows(text: string): string[][] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('No running'))
    .map((line) => line.split(',').map((field) => field.trim()));
}

function parseMiB(field: string | undefined): number | null {
  if (field === undefined) return null;
  const value = Number.parseFloat(field.replace(/\s*MiB$/i, ''));
  return Number.isFinite(value) ? value : null;
}
