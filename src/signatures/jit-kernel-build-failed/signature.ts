import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'jit-kernel-build-failed',
  title: 'a kernel compiled at start-up failed to build',
  category: 'kernel-compile',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['error', 'fatal', 'undefined reference'],
  match: {
    // The compiler's or linker's line that the engine picked out of the build output.
    message:
      /(?:^|\s)(?:fatal error|error)(?: [A-Z]\d+)?: |nvcc fatal|undefined reference to|collect2: error|ld returned \d+ exit status/,
    context:
      /ninja: build stopped|Ninja build failed|Error building extension|compilation terminated|FAILED: \S+\.o\b/,
  },
  explanation:
    'A kernel that is compiled on this machine when the server starts (a flashinfer JIT module, DeepGEMM, a ' +
    'torch extension, a TensorRT-LLM plugin) failed to build, and the compiler line above is why. Such builds ' +
    'depend on the local CUDA toolkit, host compiler and headers matching what the package expects; a toolkit ' +
    'older or newer than torch.version.cuda, or a mismatched header set, is the usual cause.',
  fix: 'Install the prebuilt kernels so nothing compiles at start-up (for flashinfer: pip install flashinfer-cubin flashinfer-jit-cache at the same version as flashinfer-python), or make CUDA_HOME point at a toolkit matching torch.version.cuda',
  action: [
    {
      kind: 'step',
      text: "Install the prebuilt kernels so nothing compiles at start-up (flashinfer's, at flashinfer-python's version):",
    },
    { kind: 'install', requirements: ['flashinfer-cubin', 'flashinfer-jit-cache'] },
    { kind: 'step', text: 'or point CUDA_HOME at a toolkit matching torch.version.cuda' },
  ],
  alternative:
    'Clear the kernel cache after changing the toolchain (~/.cache/flashinfer, ~/.cache/torch_extensions) so a ' +
    'half-built module is not reused.',
  references: ['https://github.com/vllm-project/vllm/pull/26799'],
  // Generic: the signatures for specific build failures (Python.h, -lcuda, nvcc version) win.
  weight: 0.5,
});
