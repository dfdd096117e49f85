import compute from './compute-capability/check.js';
import cudaVariant from './cuda-variant-mismatch/check.js';
import diskSpace from './disk-space-low/check.js';
import driver from './driver-too-old/check.js';
import duplicate from './duplicate-distribution/check.js';
import engine from './engine-pin-mismatch/check.js';
import changed from './environment-changed/check.js';
import extra from './extra-requirement-unmet/check.js';
import familyMoved from './family-moved-in-part/check.js';
import overlap from './file-overlap/check.js';
import flashinfer from './flashinfer-version-mismatch/check.js';
import gpuMemory from './gpu-memory-held/check.js';
import gpuUnavailable from './gpu-unavailable/check.js';
import maxLen from './max-model-len-too-long/check.js';
import metadata from './metadata-unreadable/check.js';
import architecture from './model-architecture-unknown/check.js';
import nvidiaMix from './nvidia-cuda-major-mix/check.js';
import port from './port-in-use/check.js';
import requirement from './requirement-unmet/check.js';
import requiresPython from './requires-python/check.js';
import shm from './shm-too-small/check.js';
import tp from './tp-not-dividing-heads/check.js';
import kernels from './kernel-image-missing/check.js';
import kvCache from './kv-cache-too-small/check.js';
import layout from './parallel-layout/check.js';
import quantization from './quantization-unsupported/check.js';
import undefinedSymbol from './undefined-torch-symbol/check.js';
import sharedObject from './shared-object-damaged/check.js';
import torchFamily from './torch-family-mismatch/check.js';
import type { Check } from './define-check.js';

export type { Check, CheckContext, Finding, Problem, Severity } from './define-check.js';
export { runChecks } from './run-checks.js';
export { findPartialMoves } from './family-moved-in-part/find-partial-moves.js';
export { summarizeDiff } from './environment-changed/check.js';

/** Every check, in report order: what kills the import first, then GPU, host and model. */
export const CHECKS: readonly Check[] = [
  requirement,
  extra,
  requiresPython,
  duplicate,
  overlap,
  metadata,
  sharedObject,
  undefinedSymbol,
  flashinfer,
  torchFamily,
  cudaVariant,
  nvidiaMix,
  engine,
  familyMoved,
  changed,
  gpuUnavailable,
  driver,
  compute,
  kernels,
  quantization,
  gpuMemory,
  port,
  diskSpace,
  shm,
  architecture,
  tp,
  layout,
  maxLen,
  kvCache,
];
