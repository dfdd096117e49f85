import { defineCheck, type CheckContext, type Problem } from '../define-check.js';
import { findNumber, findTextConfig } from '../model-config.js';

// Expert counts across model families (DeepSeek n_routed_experts, Mixtral/gpt-oss num_local_experts, Qwen num_experts).
const EXPERT_KEYS = ['n_routed_experts', 'num_local_experts', 'num_experts', 'moe_num_experts'];

/**
 * The parallel layout against the GPUs and the model: DP × TP × PP ranks need that many visible GPUs
 * (CUDA_VISIBLE_DEVICES narrows what nvidia-smi lists), and expert parallelism must be able to spread
 * the experts: SGLang's FusedMoE asserts `num_experts % moe_ep_size == 0`; vLLM spreads a remainder over
 * the first ranks, except with --enable-eplb ("EPLB currently only supports even distribution of experts
 * across ranks").
 */
export default defineCheck({
  id: 'parallel-layout',
  severity: 'error',
  title: 'Parallel layout does not fit',
  run: (context) => [...checkRanks(context), ...checkExperts(context)],
});

function checkRanks({ server, gpu, env }: CheckContext): Problem[] {
  if (server === null || gpu?.status !== 'ok') return [];
  const tp = server.tensorParallel ?? 1;
  const pp = server.pipelineParallel ?? 1;
  const dp = server.dataParallel ?? 1;
  const ranks = tp * pp * dp;
  if (ranks === 1) return [];
  const listed = gpu.gpus.length;
  const visible = countVisible(env.CUDA_VISIBLE_DEVICES, listed);
  if (ranks <= visible) return [];
  const layout = `data parallel ${dp} × tensor parallel ${tp} × pipeline parallel ${pp} = ${ranks} GPUs`;
  const seen =
    visible === listed
      ? `nvidia-smi shows ${listed}`
      : `CUDA_VISIBLE_DEVICES=${env.CUDA_VISIBLE_DEVICES ?? ''} leaves ${visible} of the ${listed} nvidia-smi shows`;
  return [
    {
      detail: `The command asks for ${layout} on this host; ${seen}. The engine stops while placing workers (vLLM: "World size (${ranks}) is larger than the number of available GPUs").`,
      fix:
        visible < listed
          ? `make ${ranks} GPUs visible (CUDA_VISIBLE_DEVICES) or lower the parallel sizes so their product is ${visible} or less`
          : `lower the parallel sizes so --data-parallel-size × --tensor-parallel-size × --pipeline-parallel-size is ${visible} or less, or spread the ranks over more nodes`,
      packages: [],
    },
  ];
}

function checkExperts({ server, model }: CheckContext): Problem[] {
  const ep = server?.expertParallel ?? null;
  if (server === null || ep === null || ep <= 1 || model === null) return [];
  const experts = findNumber(findTextConfig(model.config), EXPERT_KEYS);
  if (experts === null || experts.value % ep === 0) return [];
  const even = divisorBelow(experts.value, ep);
  const strict = server.engine === 'sglang' || server.enableEplb;
  return [
    {
      severity: strict ? 'error' : 'warning',
      title: 'Expert-parallel size does not divide the experts',
      detail:
        `The model has ${experts.value} experts (${experts.key}); expert parallel size ${ep} does not divide them. ` +
        (strict
          ? server.enableEplb
            ? 'vLLM\'s EPLB refuses: "EPLB currently only supports even distribution of experts across ranks."'
            : `SGLang asserts num_experts % moe_ep_size == 0 while building the MoE layers, after the weights start loading.`
          : `vLLM gives the first ${experts.value % ep} rank(s) one expert more, so those GPUs hold more weights and do more work.`),
      fix: `use an expert-parallel size that divides ${experts.value} (for example ${even})`,
      packages: [],
    },
  ];
}

/** GPUs CUDA_VISIBLE_DEVICES leaves: its entries up to the first invalid one (as CUDA reads it); unset: all. */
function countVisible(value: string | undefined, listed: number): number {
  if (value === undefined) return listed;
  const trimmed = value.trim();
  if (trimmed === '') return 0;
  let count = 0;
  for (const entry of trimmed.split(',')) {
    const item = entry.trim();
    if (/^\d+$/.test(item) ? Number(item) >= listed : !/^(GPU|MIG)-/i.test(item)) break;
    count++;
  }
  return Math.min(count, listed);
}

function divisorBelow(count: number, limit: number): number {
  for (let size = Math.min(count, limit); size > 1; size--) if (count % size === 0) return size;
  return 1;
}
