import type { FatbinSummary } from '../../elf/index.js';
import type { GpuDevice } from '../../environment/parse-nvidia-smi.js';
import type { SharedObjectReading } from '../../environment/read-shared-objects.js';
import { defineCheck, type CheckContext, type Problem } from '../define-check.js';
import { compareDotted, findDriverCuda } from '../driver-too-old/driver-cuda.js';
import { describeFatbin, findKernelSupport, formatArch } from './kernel-support.js';

const NAMED_FILES = 3;

/** Files of one distribution short of SASS for the GPU: what each carries and why nothing runs (or which PTX). */
interface Gap {
  reading: SharedObjectReading;
  carries: string;
  note: string;
}

/**
 * Each compiled library's CUDA kernels against the GPU: without SASS for its architecture and without
 * PTX the driver can JIT, the first launch fails with "no kernel image is available for execution on
 * the device" (or the library's own "This kernel only supports sm120", "No supported CUDA architectures").
 */
export default defineCheck({
  id: 'kernel-image-missing',
  severity: 'error',
  title: 'Compiled CUDA kernels missing for this GPU',
  run: (context) => {
    const readings = (context.sharedObjects ?? []).filter((reading) => hasKernels(reading));
    if (context.gpu?.status !== 'ok' || readings.length === 0) return [];
    const problems: Problem[] = [];
    for (const device of distinctKinds(context.gpu.gpus)) {
      problems.push(...checkDevice(device, readings, context));
    }
    return problems;
  },
});

function checkDevice(device: GpuDevice, readings: SharedObjectReading[], context: CheckContext): Problem[] {
  const capability = device.computeCapability ?? '';
  const arch = formatArch(Number(capability.replace('.', '')));
  const driverCuda = device.driverVersion === '' ? null : findDriverCuda(device.driverVersion);
  const jitDisabled = context.env.CUDA_DISABLE_PTX_JIT === '1';
  const gaps: Record<GapKind, Map<string, Gap[]>> = {
    missing: new Map(),
    jitted: new Map(),
    familyOnly: new Map(),
  };
  for (const reading of readings) {
    const fatbin = reading.facts?.fatbin;
    if (fatbin == null) continue;
    const support = findKernelSupport(fatbin, capability, driverCuda, jitDisabled);
    const key = `${reading.distribution}\0${reading.version}`;
    const carries = describeFatbin(fatbin);
    if (support.kind === 'none') {
      const kind = isFamilyOnly(fatbin, capability) ? 'familyOnly' : 'missing';
      push(gaps[kind], key, { reading, carries, note: support.reason });
    } else if (support.kind === 'ptx-jit') {
      push(gaps.jitted, key, { reading, carries, note: formatArch(support.arch, 'compute') });
    }
  }
  const problems: Problem[] = [];
  for (const kind of GAP_KINDS) {
    for (const files of gaps[kind].values()) {
      const first = files[0];
      if (first === undefined) continue;
      const { reading } = first;
      problems.push({
        ...describeGap(kind, { device, arch, capability, first, files }),
        fix: describeFix(reading, capability, driverCuda?.cuda ?? null),
        packages: [reading.distribution],
      });
    }
  }
  return problems;
}

/** What a distribution's files lack for the GPU, worst first: no kernel at all, PTX only, another family's. */
type GapKind = 'missing' | 'jitted' | 'familyOnly';
const GAP_KINDS: readonly GapKind[] = ['missing', 'jitted', 'familyOnly'];

interface GapFacts {
  device: GpuDevice;
  arch: string;
  capability: string;
  first: Gap;
  files: Gap[];
}

/** The problem's wording by kind; a missing kernel keeps the check's own severity and title. */
function describeGap(
  kind: GapKind,
  { device, arch, capability, first, files }: GapFacts,
): Omit<Problem, 'fix' | 'packages'> {
  const { reading } = first;
  const where = `${reading.path} of ${reading.distribution} ${reading.version}`;
  if (kind === 'missing') {
    return {
      detail:
        `${device.name} is ${arch} (compute capability ${capability}). ${where} ` +
        `carries ${first.carries}: nothing for ${arch} (${first.note})${alsoFiles(files)}. ` +
        'The first kernel launch fails with "no kernel image is available for execution on the device".',
    };
  }
  if (kind === 'jitted') {
    return {
      severity: 'warning',
      title: 'CUDA kernels only as PTX for this GPU',
      detail:
        `${device.name} is ${arch}. ${where} carries ${first.carries}: ` +
        `no ${arch} SASS${alsoFiles(files)}, so the driver JIT-compiles its ${first.note} PTX at the first load ` +
        `(minutes of start-up, cached in ~/.nv/ComputeCache), and kernels that need ${arch} features are not there.`,
    };
  }
  return {
    severity: 'warning',
    title: 'CUDA library built for another GPU family only',
    detail:
      `${device.name} is ${arch}. ${where} carries only ${first.carries}${alsoFiles(files)}: ` +
      'a kernel set for that one GPU family, which engines usually load only on such GPUs. If the server loads it here, ' +
      'the first launch fails with "no kernel image is available for execution on the device".',
  };
}

/**
 * SASS of one major only and no PTX (FlashMLA's sm_90a, a CUTLASS sm_100 module): an add-on for that
 * family, not the library's general kernels, so another GPU not finding itself there is a warning.
 */
function isFamilyOnly(fatbin: FatbinSummary, capability: string): boolean {
  const majors = new Set(fatbin.sass.map((sass) => Math.floor(sass / 10)));
  const [major] = [...majors];
  return fatbin.ptx.length === 0 && majors.size === 1 && String(major) !== capability.split('.')[0];
}

/** A wheel for the architecture from the engine's CUDA index, or a source build for exactly this GPU. */
function describeFix(reading: SharedObjectReading, capability: string, driverCuda: string | null): string {
  // Blackwell (10.0 and up) needs CUDA 12.8 wheels; a CUDA 13 driver can take the cu130 ones.
  const cuda =
    compareDotted(capability, '10.0') < 0
      ? 'cu126'
      : driverCuda !== null && compareDotted(driverCuda, '13.0') >= 0
        ? 'cu130'
        : 'cu128';
  const name = reading.distribution;
  const wheel =
    name === 'torch'
      ? `pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/${cuda}`
      : `install a ${name} wheel built for sm_${capability.replace('.', '')} (its ${cuda} build, e.g. pip install --force-reinstall ${name} --extra-index-url https://download.pytorch.org/whl/${cuda})`;
  return `${wheel}, or build it from source for this GPU: TORCH_CUDA_ARCH_LIST="${capability}" pip install --no-build-isolation --no-binary ${name} ${name}==${reading.version}`;
}

function hasKernels(reading: SharedObjectReading): boolean {
  const fatbin = reading.facts?.fatbin;
  return fatbin != null && fatbin.sass.length + fatbin.ptx.length > 0;
}

function distinctKinds(gpus: readonly GpuDevice[]): GpuDevice[] {
  const kinds = new Map<string, GpuDevice>();
  for (const device of gpus) {
    if (device.computeCapability !== null) kinds.set(`${device.name}\0${device.computeCapability}`, device);
  }
  return [...kinds.values()];
}

/** "; so do a.so, b.so and 3 more": the other files of the distribution with the same gap. */
function alsoFiles(files: readonly Gap[]): string {
  const others = files.slice(1).map((file) => file.reading.path);
  if (others.length === 0) return '';
  const named = others.slice(0, NAMED_FILES);
  const more = others.length - named.length;
  return `; so ${others.length === 1 ? 'does' : 'do'} ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
