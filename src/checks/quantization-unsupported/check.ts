import type { GpuDevice } from '../../environment/parse-nvidia-smi.js';
import { defineCheck, type CheckContext, type Problem } from '../define-check.js';
import { compareDotted } from '../driver-too-old/driver-cuda.js';

interface QuantizationRule {
  /** quant_method / --quantization values it covers. */
  methods: readonly string[];
  /** Below this, vLLM raises "The quantization method X is not supported for the current GPU. Minimum capability: N". */
  minimum: string;
  /** Below this (and at or above the minimum), it runs through a slower fallback; null: none. */
  native: string | null;
  fallback: string;
}

/**
 * Minimum compute capability per method, from vLLM's get_min_capability (as its error quotes it):
 * AWQ 7.5 ("Minimum capability: 75. Current capability: 70", vLLM #4202), FP8 8.0 ("Minimum capability:
 * 80. Current capability: 75"), the Marlin kernels 8.0; FP8 runs natively from 8.9 (Ada, Hopper) and as
 * weight-only Marlin W8A16 on Ampere (vLLM's FP8 docs); NVFP4/MXFP4 natively from 10.0 (Blackwell), else
 * weight-only through Marlin ("Your GPU does not have native support for FP4 computation").
 */
const RULES: readonly QuantizationRule[] = [
  {
    methods: ['fp8', 'fbgemm_fp8', 'ptpc_fp8'],
    minimum: '8.0',
    native: '8.9',
    fallback: 'weight-only FP8 through Marlin (W8A16)',
  },
  {
    methods: ['modelopt_fp4', 'nvfp4', 'mxfp4'],
    minimum: '8.0',
    native: '10.0',
    fallback: 'weight-only FP4 through Marlin',
  },
  {
    methods: ['awq_marlin', 'gptq_marlin', 'marlin', 'gptq_marlin_24'],
    minimum: '8.0',
    native: null,
    fallback: '',
  },
  { methods: ['awq'], minimum: '7.5', native: null, fallback: '' },
  { methods: ['gptq'], minimum: '6.0', native: null, fallback: '' },
];

/** The model's quantization method (config quantization_config, or --quantization) against each GPU. */
export default defineCheck({
  id: 'quantization-unsupported',
  severity: 'error',
  title: 'Quantization method not supported by this GPU',
  run: (context) => {
    const method = findMethod(context);
    const rule = method === null ? undefined : RULES.find((candidate) => candidate.methods.includes(method));
    if (method === null || rule === undefined || context.gpu?.status !== 'ok') return [];
    const problems: Problem[] = [];
    for (const device of distinctCapabilities(context.gpu.gpus)) {
      const capability = device.computeCapability ?? '';
      const current = capability.replace('.', '');
      if (compareDotted(capability, rule.minimum) < 0) {
        problems.push({
          detail: `${device.name} has compute capability ${capability}; the model is quantized with ${method}: "The quantization method ${method} is not supported for the current GPU. Minimum capability: ${rule.minimum.replace('.', '')}. Current capability: ${current}."`,
          fix: `serve an unquantized (or GPTQ/AWQ) build of the model, or use a GPU of compute capability ${rule.minimum} or newer`,
          packages: [],
        });
      } else if (rule.native !== null && compareDotted(capability, rule.native) < 0) {
        problems.push({
          severity: 'warning',
          title: 'Quantization runs through a fallback on this GPU',
          detail: `${device.name} (compute capability ${capability}) lacks native ${method} (${rule.native} and newer); the engine falls back to ${rule.fallback}, slower for compute-heavy work, and some kernels (MoE, attention) may have no fallback.`,
          fix: `expect lower throughput, or serve a checkpoint quantized for this GPU (AWQ/GPTQ for ${capability})`,
          packages: [],
        });
      }
    }
    return problems;
  },
});

function findMethod(context: CheckContext): string | null {
  const flag = context.server?.quantization;
  if (flag != null) return flag.toLowerCase();
  const quantization = context.model?.config.quantization_config;
  if (typeof quantization !== 'object' || quantization === null) return null;
  const method = (quantization as Record<string, unknown>).quant_method;
  if (typeof method !== 'string') return null;
  // compressed-tensors and modelopt name the format in a sub-field.
  const format = (quantization as Record<string, unknown>).quant_algo;
  if (method === 'modelopt' && typeof format === 'string')
    return format.toLowerCase() === 'nvfp4' ? 'nvfp4' : 'fp8';
  return method.toLowerCase();
}

function distinctCapabilities(gpus: readonly GpuDevice[]): GpuDevice[] {
  const seen = new Map<string, GpuDevice>();
  for (const device of gpus)
    if (device.computeCapability !== null) seen.set(device.computeCapability, device);
  return [...seen.values()];
}
