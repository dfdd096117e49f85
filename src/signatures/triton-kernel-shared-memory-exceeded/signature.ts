import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'triton-kernel-shared-memory-exceeded',
  title: 'A Triton kernel asked for more shared memory than this GPU has',
  category: 'kernel-compile',
  engines: ['sglang', 'vllm'],
  keywords: ['out of resource: shared memory'],
  match: {
    message: /out of resource: shared memory, Required: (?<need>\d+), Hardware limit: (?<limit>\d+)/,
  },
  explanation:
    'Triton compiled a kernel (often the fused MoE or an FP8 GEMM) with block sizes and pipeline stages that need ' +
    '{need} bytes of shared memory per block; this GPU allows {limit}. The engines ship kernel configurations tuned ' +
    'per GPU model and fall back to a default, or to the closest model, for a GPU they have none for: one made for a ' +
    'data-centre GPU (up to 227 KB) does not fit a workstation or consumer one (about 99 KB).',
  fix:
    'Upgrade the engine (newer releases carry kernel configurations for more GPUs), or tune one for this GPU with ' +
    "the engine's fused-MoE tuning script and put it where the engine reads its configurations.",
  action: [
    {
      kind: 'step',
      text: 'The traceback names the kernel: upgrade the engine, whose newer releases carry kernel configurations for more GPUs,',
    },
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
    {
      kind: 'step',
      text: 'or tune one for this GPU (at most {limit} bytes per block) with the engine’s fused-MoE tuning script',
    },
  ],
  alternative:
    'Serve the model on a GPU with more shared memory per block, or a checkpoint without FP8 block quantization, ' +
    'whose kernels need less.',
  references: ['https://github.com/sgl-project/sglang/issues/8513'],
});
