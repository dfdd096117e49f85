import { defineCheck, type Problem } from '../define-check.js';
import { ATTENTION_HEAD_KEYS, findNumber, findTextConfig, KV_HEAD_KEYS } from '../model-config.js';

/**
 * Tensor-parallel size against the model's heads and the GPUs present. vLLM checks attention heads at
 * config validation; KV heads are split (or replicated when fewer than TP) during model construction.
 */
export default defineCheck({
  id: 'tp-not-dividing-heads',
  severity: 'error',
  title: 'Tensor-parallel size does not fit the model',
  run: ({ model, tensorParallelSize: tp, gpu }) => {
    if (tp === null) return [];
    const problems: Problem[] = [];
    const gpus = gpu?.status === 'ok' ? gpu.gpus.length : null;
    if (gpus !== null && gpus > 0 && tp > gpus) {
      problems.push({
        title: 'More tensor-parallel ranks than GPUs',
        detail: `--tp ${tp} needs ${tp} GPUs; nvidia-smi shows ${gpus}.`,
        fix: `serve with --tensor-parallel-size ${gpus} or fewer, or make more GPUs visible (CUDA_VISIBLE_DEVICES)`,
        packages: [],
      });
    }
    if (model === null) return problems;
    const text = findTextConfig(model.config);
    const heads = findNumber(text, ATTENTION_HEAD_KEYS);
    if (heads === null) return problems;
    const kv = findNumber(text, KV_HEAD_KEYS) ?? heads;
    // One suggestion that passes every constraint at once: both head counts, and the GPUs present.
    const fitting = largestFittingSize(heads.value, kv.value, Math.min(tp, gpus ?? tp));
    if (heads.value % tp !== 0) {
      problems.push({
        detail: `Total number of attention heads (${heads.value}) must be divisible by tensor parallel size (${tp}).`,
        fix: `serve with --tensor-parallel-size ${fitting}`,
        packages: [],
      });
      return problems;
    }
    if (!fitsKvHeads(kv.value, tp)) {
      problems.push({
        detail: `The model has ${kv.value} KV heads (${kv.key}); tensor parallel size ${tp} can neither split them evenly nor replicate them evenly, so model construction fails.`,
        fix: `serve with --tensor-parallel-size ${fitting}`,
        packages: [],
      });
    }
    return problems;
  },
});

/** vLLM splits KV heads across ranks, or replicates each on TP / KV ranks when there are fewer. */
function fitsKvHeads(kv: number, tp: number): boolean {
  return kv >= tp ? kv % tp === 0 : tp % kv === 0;
}

/**
 * The largest TP size not above `limit` that divides the attention heads and splits or replicates the
 * KV heads (28 heads, 4 KV heads, 8 GPUs → 4, not 7). 1 always fits.
 */
function largestFittingSize(heads: number, kv: number, limit: number): number {
  for (let size = Math.min(heads, limit); size > 1; size--) {
    if (heads % size === 0 && fitsKvHeads(kv, size)) return size;
  }
  return 1;
}
