import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-library-symbol-mismatch',
  title: 'two CUDA library installations mixed in one process',
  category: 'abi-or-symbol',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['undefined symbol'],
  match: {
    message:
      /(?<lib>lib[\w-]+\.so[\d.]*): undefined symbol: (?<symbol>(?:__nvJitLink|nccl|cublas|cudnn|cusparse|cufft)\w+)/,
  },
  explanation:
    '{lib} needs {symbol} from another CUDA library, but the copy that got loaded is older and lacks it: two CUDA ' +
    'installations are mixed in one process. Usually LD_LIBRARY_PATH (or a system CUDA under /usr/local/cuda) ' +
    'puts older libnvJitLink, NCCL, cuBLAS or cuDNN ahead of the versions that the pip nvidia-* wheels installed ' +
    'for torch.',
  fix: 'unset LD_LIBRARY_PATH (or drop /usr/local/cuda*/lib64 from it) and start again, so torch loads its own CUDA wheels',
  alternative:
    'Or bring the wheel that provides the symbol up to the version torch was built with, e.g. pip install -U ' +
    'nvidia-nvjitlink-cu12 for __nvJitLink symbols, nvidia-nccl-cu12 for nccl ones.',
  references: [
    'https://github.com/pytorch/pytorch/issues/134929',
    'https://github.com/pytorch/pytorch/issues/131312',
  ],
});
