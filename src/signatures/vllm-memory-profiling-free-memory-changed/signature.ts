import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-memory-profiling-free-memory-changed',
  title: 'vLLM’s memory profile saw the free memory grow',
  category: 'other',
  engines: ['vllm'],
  keywords: ['error in memory profiling'],
  match: {
    message:
      /Error in memory profiling\. Initial free memory (?<before>\d+(?:\.\d+)?) ?GiB, current free memory (?<after>\d+(?:\.\d+)?) ?GiB/,
  },
  explanation:
    'Before it sizes the KV cache, vLLM measures the free GPU memory, runs the model once, and asserts that less is ' +
    'free afterwards ({before} GiB before, {after} GiB after). More free afterwards means another process on the same ' +
    'GPU released memory during the profile. Equal numbers (seen on XPU) mean nothing was released: the check was ' +
    'too strict, and later releases accept equal.',
  fix:
    'Run the server alone on its GPUs while it starts (`nvidia-smi` lists what else runs there), or start the other ' +
    'processes after it is up. If the two numbers are equal, upgrade vLLM.',
  action: [
    {
      kind: 'step',
      text: 'Run the server alone on its GPUs while it starts, or start the other processes after it is up; this lists what else runs there:',
    },
    { kind: 'command', argv: ['nvidia-smi'], where: 'host' },
    { kind: 'step', text: 'If the two numbers ({before} and {after} GiB) are equal, upgrade vLLM:' },
    { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
  ],
  alternative:
    'On a GPU shared on purpose, start each server only after the previous one has finished loading, and give ' +
    'each a `--gpu-memory-utilization` whose sum stays below 1.',
  references: [
    'https://github.com/vllm-project/vllm/pull/33358',
    'https://github.com/vllm-project/vllm/issues/56830',
  ],
});
