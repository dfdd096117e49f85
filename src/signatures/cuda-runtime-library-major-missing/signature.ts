import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-runtime-library-major-missing',
  title: 'built for CUDA {major}, but its {lib} is not here',
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['cannot open shared object file'],
  match: {
    // CUDA toolkit libraries whose soname carries the toolkit's major version (cuDNN its own): the build
    // asks for that major by name. NCCL has been libnccl.so.2 throughout: shared-library-not-found.
    message:
      /(?<![\w.-])(?<lib>lib(?:cudart|cublas(?:Lt)?|nvrtc|nvJitLink|cusparse(?:Lt)?|cufft|curand|cusolver|cudnn\w*)\.so\.(?<major>\d+))[\d.]*: cannot open shared object file/,
  },
  explanation:
    'A compiled module was built against CUDA {major} and the dynamic loader found no {lib} for it: the machine or ' +
    'image has another CUDA major (a CUDA {major} wheel on a CUDA 11 image, or the reverse), or the pip nvidia-* ' +
    'wheels for this major were removed or are not on the search path. The build and the CUDA installed do not match.',
  fix: 'pip list | grep -i nvidia to see which CUDA wheels are installed, then install the ones for CUDA {major} (libcudart.so.12 comes from nvidia-cuda-runtime-cu12), or the engine build made for the CUDA you have (the +cu118 / +cu121 wheels)',
  action: [
    { kind: 'inspect-packages', list: 'nvidia' },
    {
      kind: 'step',
      text: 'then install the CUDA {major} wheels (libcudart.so.12 comes from nvidia-cuda-runtime-cu12), or the engine build for the CUDA you have',
    },
  ],
  alternative: 'Or add the directory holding {lib} for CUDA {major} to LD_LIBRARY_PATH.',
  references: [
    'https://github.com/vllm-project/vllm/issues/1738',
    'https://github.com/vllm-project/vllm/issues/52300',
  ],
});
