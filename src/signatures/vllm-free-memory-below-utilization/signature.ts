import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-free-memory-below-utilization',
  title: 'Not enough free GPU memory for the requested gpu_memory_utilization',
  category: 'oom-gpu',
  engines: ['vllm'],
  keywords: ['less than desired gpu memory utilization'],
  match: {
    message:
      /Free memory on device[^(]*\((?<free>[\d.]+)\/(?<total>[\d.]+) GiB\) on startup is less than desired GPU memory utilization \((?<util>[\d.]+), (?<want>[\d.]+) GiB\)/,
  },
  explanation:
    'vLLM reserves a fixed share of the whole card (gpu_memory_utilization {util}, i.e. {want} GiB), but when it started ' +
    'only {free} of {total} GiB was free. Something else holds the rest: another vLLM instance, a leftover worker of a ' +
    'crashed run, or a second model on the same GPU.',
  fix:
    'Find and stop what holds the memory (`nvidia-smi`, then kill the stale process), or make vLLM ask for less than what ' +
    'is free: `--gpu-memory-utilization` below {free}/{total} of the card.',
  action: [
    {
      kind: 'step',
      text: 'Find and stop what holds the memory (`nvidia-smi`), or ask for less than is free:',
    },
    { kind: 'engine-option', option: 'gpu-memory-utilization', share: { part: '{free}', whole: '{total}' } },
  ],
  alternative:
    'To share one GPU between several servers on purpose, give each one a `--gpu-memory-utilization` whose sum stays below 1.',
  references: ['https://github.com/vllm-project/vllm/issues/23192'],
});
