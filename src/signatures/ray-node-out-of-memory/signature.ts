import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ray-node-out-of-memory',
  title: "Ray's memory monitor killed a worker (host RAM exhausted)",
  category: 'distributed-ray',
  engines: ['vllm', 'sglang', 'lmdeploy', 'trtllm'],
  keywords: ['killed due to the node running low on memory', 'killed due to memory pressure'],
  match: {
    message:
      /(?:Task was|worker\(s\) were) killed due to the node running low on memory|Workers? \(tasks \/ actors\) killed due to memory pressure \(OOM\)/,
  },
  explanation:
    "Ray watches the host's RAM, and when usage passed its threshold (95% by default) it killed a worker to protect " +
    "the node; the killed worker was one of the engine's GPU workers, so the engine lost a rank. Loading weights " +
    'goes through host memory (safetensors pages, CPU copies of shards), so several workers loading a large model at ' +
    'once on one node can exhaust the RAM even though the GPUs have room.',
  fix: 'Give the node more headroom: fewer workers loading at once per node, `--max-parallel-loading-workers 1` (vLLM V0) or safetensors loading straight to GPU, more RAM or swap; `RAY_memory_usage_threshold=0.98` only raises the limit.',
  alternative:
    '`RAY_memory_monitor_refresh_ms=0` disables the monitor, after which the kernel OOM killer may end the whole ' +
    'node instead; `ray memory` and `ray logs raylet.out` show what used the RAM.',
  references: [
    'https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html',
    'https://github.com/ray-project/ray/blob/master/python/ray/exceptions.py',
  ],
});
