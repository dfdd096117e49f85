import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'glibcxx-version-not-found',
  title: 'C++ runtime (libstdc++ or glibc) older than a library needs',
  category: 'abi-or-symbol',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['not found (required by'],
  match: {
    message:
      /version [`'](?<version>(?:GLIBCXX|CXXABI|GLIBC)_[\d.]+)' not found \(required by (?<lib>[^)\s]+)\)/,
  },
  explanation:
    '{lib} was built with a newer toolchain and needs {version}, but the C++ runtime (libstdc++) or C library ' +
    "(glibc) loaded into the process is older. In conda environments it is usually conda's own old " +
    'libstdc++.so.6 shadowing the system one; for GLIBC_ versions the operating system (or base image) is older ' +
    'than the one the binary was built for.',
  fix: "conda install -c conda-forge 'libstdcxx-ng>=12' (in a conda env), or load the system one first: export LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libstdc++.so.6",
  action: [
    {
      kind: 'step',
      text: "Give it a newer libstdc++: in a conda env `conda install -c conda-forge 'libstdcxx-ng>=12'`, else preload the system's:",
    },
    { kind: 'environment-variable', name: 'LD_PRELOAD', value: '/usr/lib/x86_64-linux-gnu/libstdc++.so.6' },
  ],
  alternative:
    'For GLIBC_ versions no package fixes it: run on a newer OS or container image, or install a build of the ' +
    'package made for your distribution.',
  references: [
    'https://github.com/triton-lang/triton/issues/1543',
    'https://github.com/kvcache-ai/ktransformers/issues/524',
  ],
});
