import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'flash-attention-needs-ampere',
  title: 'FlashAttention 2 on a GPU older than Ampere',
  category: 'gpu-arch-unsupported',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ['flashattention only supports ampere', 'fa3 is only supported', 'flash attention 2 is not'],
  match: {
    message:
      /FlashAttention only supports Ampere GPUs or newer|FA3 is only supported on devices with compute capability|Flash Attention 2 is not (?:available|supported) on (?:this|your) GPU/i,
  },
  explanation:
    'The FlashAttention kernels were selected (by the engine, or forced by the model, e.g. Gemma-2 soft-capping ' +
    'or remote code asking for flash_attention_2), and they only run on compute capability 8.0 (Ampere) or newer. ' +
    'On Volta (V100) and Turing (T4, RTX 20xx) the first attention call fails.',
  fix: 'Pick an attention backend that runs on this GPU: VLLM_ATTENTION_BACKEND=XFORMERS (or TRITON_ATTN on newer vLLM) for vLLM, --attention-backend triton for SGLang',
  action: [
    { kind: 'step', text: 'Pick an attention backend that runs on this GPU:' },
    { kind: 'environment-variable', name: 'VLLM_ATTENTION_BACKEND', value: 'TRITON_ATTN', engines: ['vllm'] },
    {
      kind: 'step',
      text: '(XFORMERS on older vLLM; SGLang: the triton attention backend; or a GPU of the Ampere generation or newer)',
    },
  ],
  alternative:
    'For transformers-based servers, load the model with attn_implementation="sdpa" instead of ' +
    '"flash_attention_2"; or run on an Ampere-or-newer GPU.',
  references: ['https://github.com/vllm-project/vllm/issues/8189'],
});
