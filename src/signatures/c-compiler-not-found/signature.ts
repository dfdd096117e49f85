import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'c-compiler-not-found',
  title: 'no C/C++ compiler or build tool for kernels compiled at start-up',
  category: 'missing-dependency',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: [
    'failed to find c compiler',
    'ninja is required',
    "command 'gcc' failed",
    'c++: not found',
    'gcc: not found',
    "command 'c++' failed",
  ],
  match: {
    message:
      /Failed to find C compiler|Ninja is required to load C\+\+ extensions|command '(?:gcc|cc|c\+\+|g\+\+|x86_64-linux-gnu-gcc)' failed: No such file or directory|\b(?:c\+\+|g\+\+|gcc|cc): (?:command )?not found/,
  },
  explanation:
    'Triton, torch.compile and the just-in-time kernel builds of flashinfer, DeepGEMM or torch extensions compile C, ' +
    'C++ or CUDA code on the machine the first time they run, and the compiler (or ninja) is not installed. Slim ' +
    'and "-runtime" container images ship without them.',
  fix: 'apt-get install -y build-essential ninja-build (or pip install ninja for ninja alone), or set CC to an existing compiler',
  action: [
    { kind: 'system-package', packages: ['build-essential', 'ninja-build'] },
    { kind: 'step', text: 'or set CC to an existing compiler' },
  ],
  alternative:
    "Use an image that includes a toolchain (the -devel CUDA images, or the engine's official image), or install " +
    'the prebuilt kernel packages (for flashinfer: flashinfer-cubin and flashinfer-jit-cache).',
  references: ['https://github.com/vllm-project/vllm/pull/26799'],
});
