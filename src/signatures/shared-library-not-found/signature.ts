import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'shared-library-not-found',
  title: 'a native library a compiled module needs is missing',
  category: 'missing-dependency',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['cannot open shared object file'],
  match: {
    // libcuda and libnvidia-ml come with the driver: nvidia-driver-libraries-missing. A CUDA toolkit library
    // with its major in the name is a build for another CUDA: cuda-runtime-library-major-missing.
    message:
      /(?<![\w.-])(?<lib>(?!libcuda\.so|libnvidia-ml\.so|lib(?:cudart|cublas(?:Lt)?|nvrtc|nvJitLink|cusparse(?:Lt)?|cufft|curand|cusolver|cudnn\w*)\.so\.\d)lib[\w+.-]*?\.so[\d.]*): cannot open shared object file/,
  },
  explanation:
    'The dynamic loader could not find {lib}, a native library that a compiled module links against: the package ' +
    'that ships it (a pip nvidia-* wheel such as nvidia-nccl-cu12, or a system package) is not installed in this ' +
    'environment, or its directory is not on the search path.',
  fix: 'pip list | grep -i nvidia to see what is installed, then install the package that ships {lib} (libnccl.so.2 comes from nvidia-nccl-cu12)',
  action: [
    { kind: 'inspect-packages', list: 'nvidia' },
    {
      kind: 'step',
      text: 'then install the package that ships {lib} (libnccl.so.2 comes from nvidia-nccl-cu12)',
    },
  ],
  alternative:
    'Or install the build of the engine made for the CUDA version you have (the +cu118 / +cu121 wheels), or add ' +
    'the directory holding {lib} to LD_LIBRARY_PATH.',
  references: [
    'https://github.com/vllm-project/vllm/issues/1738',
    'https://github.com/vllm-project/vllm/issues/52300',
  ],
});
