import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'shared-library-not-found',
  title: 'a native library a compiled module needs is missing',
  category: 'missing-dependency',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['cannot open shared object file'],
  match: {
    // libcuda and libnvidia-ml come with the driver: nvidia-driver-libraries-missing.
    message:
      /(?<![\w.-])(?<lib>(?!libcuda\.so|libnvidia-ml\.so)lib[\w+.-]*?\.so[\d.]*): cannot open shared object file/,
  },
  explanation:
    'The dynamic loader could not find {lib}, a native library that a compiled module links against. Most often ' +
    'it is a CUDA library (libcudart, libcublas, libnccl, libcudnn) of the major version the package was built for ' +
    'that is not installed, e.g. a CUDA 12 build on a machine or image with CUDA 11 only, or pip nvidia-* wheels ' +
    'that were removed or are not on the search path.',
  fix: 'pip list | grep -i nvidia to see what is installed, then install the package that ships {lib} for your CUDA major version (libcudart.so.12 comes from nvidia-cuda-runtime-cu12)',
  alternative:
    'Or install the build of the engine made for the CUDA version you have (the +cu118 / +cu121 wheels), or add ' +
    'the directory holding {lib} to LD_LIBRARY_PATH.',
  references: [
    'https://github.com/vllm-project/vllm/issues/1738',
    'https://github.com/vllm-project/vllm/issues/52300',
  ],
});
