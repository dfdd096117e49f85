import { cudaMajor } from '../../environment/pep440.js';
import type { GpuDevice } from '../../environment/parse-nvidia-smi.js';
import { defineCheck, type CheckContext, type Problem } from '../define-check.js';
import { compareDotted } from '../driver-too-old/driver-cuda.js';
import { findTorchCuda } from '../torch-cuda.js';

interface Rule {
  /** Why this GPU cannot run it, or null when it can. */
  test(capability: string, context: CheckContext): Omit<Problem, 'title'> | null;
}

const below = (capability: string, minimum: string): boolean => compareDotted(capability, minimum) < 0;

// Architecture lists from python-env-facts §4.2: what each build ships kernels (SASS) for.
const RULES: Rule[] = [
  {
    test: (capability, context) => {
      const cuda = findTorchCuda(context);
      if (cuda === null || !below(capability, '7.5') || compareDotted(cuda, '12.8') < 0) return null;
      return {
        severity: (cudaMajor(cuda) ?? 0) >= 13 ? 'error' : 'warning',
        detail: `torch built for CUDA ${cuda} ships kernels for sm_75 and newer; this GPU is sm_${capability.replace('.', '')}: "no kernel image is available for execution on the device".`,
        fix: 'install a torch built for CUDA 12.6 or older (--index-url https://download.pytorch.org/whl/cu126), or use a newer GPU',
        packages: ['torch'],
      };
    },
  },
  {
    test: (capability, context) => {
      const cuda = findTorchCuda(context);
      if (cuda === null || below(capability, '10.0') || compareDotted(cuda, '12.8') >= 0) return null;
      return {
        severity: 'error',
        detail: `Blackwell GPUs (sm_${capability.replace('.', '')}) need torch built for CUDA 12.8 or newer; this torch is built for CUDA ${cuda}.`,
        fix: 'install torch built for CUDA 12.8 or newer (--index-url https://download.pytorch.org/whl/cu128)',
        packages: ['torch'],
      };
    },
  },
  {
    test: (capability, context) =>
      context.installed.has('flashinfer-python') && below(capability, '7.5')
        ? {
            severity: 'error',
            detail: `FlashInfer requires GPUs with sm75 or higher; this GPU is sm_${capability.replace('.', '')}.`,
            fix: 'uninstall flashinfer-python and choose another attention backend (VLLM_ATTENTION_BACKEND)',
            packages: ['flashinfer-python'],
          }
        : null,
  },
  {
    test: (capability, context) => {
      const dtype = modelDtype(context);
      if (dtype !== 'bfloat16' || !below(capability, '8.0')) return null;
      return {
        severity: 'warning',
        detail: `The model is bfloat16; "Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your GPU has compute capability ${capability}." Newer vLLM falls back to float16, older ones stop.`,
        fix: 'serve with --dtype=half',
        packages: [],
      };
    },
  },
];

/** Compute capability against what torch, FlashInfer and the model's dtype need, once per kind of GPU. */
export default defineCheck({
  id: 'compute-capability',
  severity: 'error',
  title: 'GPU architecture not supported',
  run: (context) => {
    if (context.gpu?.status !== 'ok') return [];
    const kinds = new Map<string, GpuDevice>();
    for (const device of context.gpu.gpus) {
      if (device.computeCapability !== null) kinds.set(`${device.name}\0${device.computeCapability}`, device);
    }
    const problems: Problem[] = [];
    for (const device of kinds.values()) {
      for (const rule of RULES) {
        const result = rule.test(device.computeCapability ?? '', context);
        if (result === null) continue;
        problems.push({ ...result, detail: `${device.name}: ${result.detail}` });
      }
    }
    return problems;
  },
});

function modelDtype(context: CheckContext): string | null {
  const config = context.model?.config;
  const dtype = config?.torch_dtype ?? config?.dtype;
  return typeof dtype === 'string' ? dtype : null;
}
