import type { FatbinSummary } from '../../elf/index.js';
import { compareDotted } from '../driver-too-old/driver-cuda.js';

/** How a GPU of one compute capability would get code for a library's kernels. */
export type KernelSupport =
  | { kind: 'sass'; arch: number }
  | { kind: 'ptx-jit'; arch: number; version: string }
  | { kind: 'none'; reason: string };

/**
 * SASS for sm_XY runs on compute capability X.Z for Z >= Y (binary compatibility within a major);
 * PTX for compute_XY is JIT-compiled for any capability at or above it, by a driver whose CUDA knows
 * that PTX ISA version. CUDA_DISABLE_PTX_JIT=1 turns the JIT off.
 */
export function findKernelSupport(
  fatbin: FatbinSummary,
  capability: string,
  driverCuda: { cuda: string; orNewer: boolean } | null,
  jitDisabled: boolean,
): KernelSupport {
  const [major = 0, minor = 0] = capability.split('.').map(Number);
  const target = major * 10 + minor;
  const sass = fatbin.sass.filter((arch) => Math.floor(arch / 10) === major && arch % 10 <= minor).at(-1);
  if (sass !== undefined) return { kind: 'sass', arch: sass };
  const below = fatbin.ptx.filter((entry) => entry.arch <= target);
  if (below.length === 0) {
    return {
      kind: 'none',
      reason: fatbin.ptx.length === 0 ? 'no PTX to JIT from' : 'its PTX is for newer GPUs only',
    };
  }
  if (jitDisabled) return { kind: 'none', reason: 'CUDA_DISABLE_PTX_JIT=1 turns the PTX JIT off' };
  const accepted = below.filter((entry) => driverAccepts(entry.version, driverCuda));
  const best = accepted.at(-1);
  if (best !== undefined) return { kind: 'ptx-jit', arch: best.arch, version: best.version };
  const newest = below.at(-1);
  return {
    kind: 'none',
    reason: `its PTX (ISA ${newest?.version}) needs a driver for CUDA ${ptxCuda(newest?.version ?? '')}; this driver runs CUDA ${driverCuda?.cuda} at most`,
  };
}

function driverAccepts(version: string, driverCuda: { cuda: string; orNewer: boolean } | null): boolean {
  if (driverCuda === null || driverCuda.orNewer) return true;
  const needs = ptxCuda(version);
  return needs === null || compareDotted(needs, driverCuda.cuda) <= 0;
}

// PTX ISA → the CUDA release that introduced it (PTX ISA release notes); 12.6 still emits 8.5.
const PTX_CUDA: Record<string, string> = { '8.6': '12.7', '8.7': '12.8', '8.8': '12.9' };

/** The CUDA toolkit a PTX ISA version came with: 7.x → 11.x, 8.0–8.5 → 12.0–12.5, 9.x → 13.x. */
export function ptxCuda(version: string): string | null {
  const known = PTX_CUDA[version];
  if (known !== undefined) return known;
  const match = /^(\d+)\.(\d+)$/.exec(version);
  if (match === null) return null;
  const major = Number(match[1]);
  if (major < 7) return null;
  return `${major + 4}.${match[2]}`;
}

/** sm_80, sm_120: how nvcc, torch and the engines write an architecture. */
export function formatArch(arch: number, kind: 'sm' | 'compute' = 'sm'): string {
  return `${kind}_${arch}`;
}

/** "sm_80, sm_90; PTX compute_90 (ISA 8.4)": what a fatbin carries, for the finding. */
export function describeFatbin(fatbin: FatbinSummary): string {
  const sass =
    fatbin.sass.length === 0 ? 'no SASS' : `SASS ${fatbin.sass.map((arch) => formatArch(arch)).join(', ')}`;
  const ptx =
    fatbin.ptx.length === 0
      ? 'no PTX'
      : `PTX ${fatbin.ptx.map((entry) => `${formatArch(entry.arch, 'compute')} (ISA ${entry.version})`).join(', ')}`;
  return `${sass}; ${ptx}`;
}
