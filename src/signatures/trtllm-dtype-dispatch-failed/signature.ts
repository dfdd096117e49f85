import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'trtllm-dtype-dispatch-failed',
  title: 'Kernel has no implementation for the model dtype',
  category: 'config-invalid',
  engines: ['trtllm', 'sglang', 'vllm'],
  keywords: ['failed to dispatch data type'],
  match: {
    message: /failed to dispatch data type (?<dtype>\w+)/,
  },
  explanation:
    'A fused kernel (here from FlashInfer, used by the TensorRT-LLM PyTorch backend and by SGLang) is compiled only for ' +
    'half-precision inputs and has no branch for {dtype}. The model was loaded in a dtype the kernels were never built ' +
    'for, usually float32.',
  fix:
    'Run the model in bfloat16 or float16: set `dtype="bfloat16"` in the LLM API or `torch_dtype` in the checkpoint ' +
    'config.json (SGLang and vLLM: `--dtype bfloat16`).',
  action: [
    {
      kind: 'step',
      text: 'Run the model in bfloat16 or float16: dtype="bfloat16" in the LLM API, or torch_dtype in the checkpoint config.json',
    },
    { kind: 'engine-option', option: 'dtype', value: 'bfloat16' },
  ],
  references: ['https://github.com/NVIDIA/TensorRT-LLM/issues/5260'],
});
