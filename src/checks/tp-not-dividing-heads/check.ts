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
    const fitting = divisorsUpTo(heads.value, tp);
    if (heads.value % tp !== 0) {
      problems.push({
        detail: `Total number of attention heads (${heads.value}) must be divisible by tensor parallel size (${tp}).`,
        fix: `serve with --tensor-parallel-size ${fitting}`,
        packages: [],
      });
      return problems;
    }
    const kv = findNumber(text, KV_HEAD_KEYS) ?? heads;
    const splits = kv.value >= tp ? kv.value % tp === 0 : tp % kv.value === 0;
    if (!splits) {
      problems.push({
        detail: `The model has ${kv.value} KV heads (${kv.key}); tensor parallel size ${tp} can neither split them evenly nor replicate them evenly, so model construction fails.`,
        fix: `serve with --tensor-parallel-size ${divisorsUpTo(kv.value, tp)}`,
        packages: [],
      });
    }
    return problems;
  },
});

/** The largest divisor of `count` not above `limit`: the nearest TP size that fits. */
function divisorsUpTo(count: number, limit: number): number {
  for (let size = Math.min(count, limit); size > 1; size--) if (count % size === 0) return size;
  return 1;
}
