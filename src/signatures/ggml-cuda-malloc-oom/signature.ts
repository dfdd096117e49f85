import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ggml-cuda-malloc-oom',
  title: 'llama.cpp could not allocate a GPU buffer (out of VRAM)',
  category: 'oom-gpu',
  engines: ['llamacpp', 'ollama'],
  keywords: [
    'cudamalloc failed',
    'failed to allocate cuda',
    'unable to allocate cuda',
    'failed to allocate rocm',
    'unable to allocate rocm',
    'failed to allocate buffer for kv cache',
    'failed to allocate vulkan',
    'unable to allocate vulkan',
    'failed to allocate metal',
    'unable to allocate metal',
    'failed to allocate sycl',
    'unable to allocate sycl',
    'erroroutofdevicememory',
  ],
  match: {
    message:
      /cudaMalloc failed: out of memory|(?:failed|unable) to allocate (?:CUDA|ROCm|Vulkan|Metal|SYCL)\d* buffer|failed to allocate buffer for kv cache|ErrorOutOfDeviceMemory/,
  },
  explanation:
    'The ggml GPU backend (CUDA, or ROCm, Vulkan, Metal, SYCL) asked for a buffer, for the offloaded layers or for ' +
    'the context (KV cache), and the GPU did not have that much free. The layers offloaded with --n-gpu-layers and ' +
    'the context size together need more VRAM than is available, often because another process or an earlier ' +
    'model still occupies the card.',
  fix:
    'Offload fewer layers (`--n-gpu-layers 20` instead of all) or shrink the context (`--ctx-size 8192`); with Ollama set ' +
    '`num_ctx` lower in the Modelfile or request and `OLLAMA_NUM_PARALLEL=1`, since each parallel slot gets its own context.',
  action: [
    {
      kind: 'step',
      text: 'Offload fewer layers, shrink the context, and run fewer slots at once (each gets its own context):',
    },
    { kind: 'engine-option', option: 'gpu-layers', value: '20' },
    { kind: 'engine-option', option: 'max-model-len', value: '8192' },
    { kind: 'engine-option', option: 'max-num-seqs', value: '1' },
  ],
  alternative:
    'Use a smaller quantization of the same model (e.g. Q4_K_M instead of Q8_0), quantize the KV cache (`--cache-type-k q8_0 ' +
    '--cache-type-v q8_0` with flash attention), and check `nvidia-smi` for other processes on the GPU.',
  references: [
    'https://github.com/ollama/ollama/issues/9295',
    'https://github.com/gpustack/gpustack/issues/1269',
  ],
});
