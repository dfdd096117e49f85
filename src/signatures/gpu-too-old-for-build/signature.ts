import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'gpu-too-old-for-build',
  title: 'GPU older than the CUDA build supports',
  category: 'gpu-arch-unsupported',
  engines: ['ollama', 'llamacpp', 'vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: [
    'cublas error',
    'no kernel image is available',
    'invalid device function',
    'no longer supports this gpu',
  ],
  match: {
    message:
      /cuBLAS error \d+|no kernel image is available|invalid device function|no longer supports this GPU/,
    // Compute capability below 5.0 (Kepler and older): current CUDA 12 builds start at 5.0.
    context: /(?:compute|cuda) capability:? (?<cc>[1-4]\.\d)\b/i,
  },
  blame: 'context',
  explanation:
    'This GPU has compute capability {cc}, older than anything the CUDA libraries in this build were compiled ' +
    'for (CUDA 12 and current PyTorch, llama.cpp and Ollama builds start at 5.0). The first CUDA or cuBLAS call ' +
    'fails, and the error that gets printed does not mention the GPU generation.',
  fix: 'Run on a GPU with compute capability 5.0 or newer, or run on the CPU (Ollama: OLLAMA_LLM_LIBRARY=cpu; llama.cpp: -ngl 0 or a CPU build)',
  action: [
    {
      kind: 'step',
      text: 'Run on a GPU with compute capability 5.0 or newer, or on the CPU (Ollama: OLLAMA_LLM_LIBRARY=cpu; a CPU build)',
    },
    { kind: 'engine-option', option: 'gpu-layers', value: '0' },
  ],
  alternative:
    'Or build the engine yourself with an older CUDA toolkit that still targets compute capability {cc} (CUDA 11 ' +
    'for 3.5 and 3.7) and the matching architecture list.',
  references: ['https://github.com/ollama/ollama/pull/1834'],
});
