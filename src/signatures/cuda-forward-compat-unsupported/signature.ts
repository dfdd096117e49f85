import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-forward-compat-unsupported',
  title: 'CUDA forward-compatibility library on a GPU that cannot use it',
  category: 'driver-cuda-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: [
    'unsupported display driver / cuda driver combination',
    'forward compatibility was attempted on non supported hw',
  ],
  match: {
    // 803, and 804 (cudaErrorCompatNotSupportedOnDevice) when the compat library meets a GPU without
    // forward compatibility.
    message:
      /system has unsupported display driver \/ cuda driver combination|forward compatibility was attempted on non supported HW/,
  },
  explanation:
    'The process loaded a libcuda from a CUDA forward-compatibility package (cuda-compat, /usr/local/cuda/compat) ' +
    'instead of the one that came with the host driver, and the two do not work together (CUDA error 803, or 804 ' +
    'on a GPU that does not support forward compatibility at all). Forward compatibility is only supported on ' +
    'data-center GPUs and certain driver branches; on GeForce or workstation cards, or when the host driver is ' +
    'newer than the compat library, it fails. Images that register the compat libraries in ld.so.conf or ' +
    'LD_LIBRARY_PATH cause it.',
  fix: "Remove the cuda-compat directory from LD_LIBRARY_PATH (and from /etc/ld.so.conf.d, then run ldconfig) so the host driver's libcuda.so.1 is used",
  alternative:
    'Newer vLLM images load the compat libraries only when asked (VLLM_ENABLE_CUDA_COMPATIBILITY); or upgrade ' +
    'the host driver so no compat library is needed.',
  references: [
    'https://github.com/vllm-project/vllm/issues/33447',
    'https://github.com/ggml-org/llama.cpp/issues/17542',
  ],
});
