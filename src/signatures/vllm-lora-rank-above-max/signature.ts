import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-lora-rank-above-max',
  title: "a LoRA adapter's rank exceeds --max-lora-rank",
  category: 'config-invalid',
  engines: ['vllm'],
  keywords: ['is greater than max_lora_rank'],
  match: {
    message: /LoRA rank (?<rank>\d+) is greater than max_lora_rank (?<max>\d+)/,
  },
  explanation:
    'vLLM preallocates the LoRA weight slots for a fixed maximum rank (--max-lora-rank, 16 by default) and refuses ' +
    'an adapter trained with a larger rank ({rank} here, against {max}). With --lora-modules the adapter is loaded at ' +
    'start-up, so the server never comes up.',
  fix: 'Start with `--max-lora-rank {rank}` or the next allowed value above it (the help of --max-lora-rank lists them), together with `--enable-lora`.',
  action: [
    {
      kind: 'step',
      text: 'Allow the adapter’s rank {rank} (or the next allowed value above it), with LoRA enabled:',
    },
    { kind: 'engine-option', option: 'max-lora-rank', value: '{rank}' },
  ],
  alternative:
    'A larger max rank reserves more GPU memory for every LoRA slot; lower `--max-loras` if memory becomes tight, or ' +
    'retrain the adapter at a lower rank.',
  references: [
    'https://github.com/vllm-project/vllm/blob/main/vllm/lora/worker_manager.py',
    'https://docs.vllm.ai/en/stable/features/lora.html',
  ],
});
