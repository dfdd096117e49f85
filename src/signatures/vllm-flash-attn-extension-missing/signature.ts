import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-flash-attn-extension-missing',
  title: "vLLM's bundled flash-attention kernels are missing or do not load",
  category: 'missing-dependency',
  engines: ['vllm'],
  keywords: ['requires the cuda flash attention extensions'],
  match: {
    message: /vllm_flash_attn requires the CUDA flash attention extensions/,
  },
  explanation:
    'vLLM ships its FlashAttention kernels as compiled modules (vllm/vllm_flash_attn/_vllm_fa2_C, _vllm_fa3_C), ' +
    'and neither could be imported. The vLLM install has no such files (a source build or community wheel made ' +
    'without them, or run from inside a vLLM source checkout that shadows the wheel), or they exist but fail to ' +
    'load because torch was changed after vLLM was installed. Code that imports vllm.vllm_flash_attn then stops.',
  fix:
    'See why: `python -c "import vllm.vllm_flash_attn._vllm_fa2_C"`. If the module is missing, reinstall a vLLM wheel ' +
    'that includes it (`pip install --force-reinstall vllm`) or start the server outside the source tree; if it fails ' +
    'with an undefined symbol, reinstall the torch version that vLLM release pins.',
  action: [
    {
      kind: 'step',
      text: 'See why: `python -c "import vllm.vllm_flash_attn._vllm_fa2_C"`. If the module is missing, reinstall a vLLM wheel that includes it (or start the server outside the source tree):',
    },
    { kind: 'install', requirements: ['vllm'], options: ['--force-reinstall'] },
  ],
  alternative:
    'On GPUs or builds without FlashAttention, select another attention backend (e.g. VLLM_ATTENTION_BACKEND=' +
    'TRITON_ATTN or FLASHINFER, per your vLLM version), if the model does not need FlashAttention-only features.',
  references: ['https://github.com/vllm-project/vllm/blob/main/vllm/vllm_flash_attn/__init__.py'],
});
