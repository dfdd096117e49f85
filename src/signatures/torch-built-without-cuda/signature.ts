import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'torch-built-without-cuda',
  title: 'a CPU-only torch is installed',
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ['torch not compiled with cuda enabled'],
  match: {
    message: /Torch not compiled with CUDA enabled/,
  },
  explanation:
    'The installed torch is a CPU-only build, so any CUDA call fails. pip picked the CPU wheel (the default on ' +
    'some platforms and mirrors), or a later install replaced the CUDA build of torch with a CPU one while ' +
    "resolving another package's requirement.",
  fix: 'pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu128 (use the cu tag your engine release is built for; python -c "import torch; print(torch.__version__)" shows +cpu now)',
  action: [
    {
      kind: 'install',
      requirements: ['torch'],
      options: ['--force-reinstall'],
      index: 'https://download.pytorch.org/whl/cu128',
    },
    {
      kind: 'step',
      text: 'with the cu tag your engine release is built for (torch.__version__ ends in +cpu now)',
    },
  ],
  alternative:
    'Reinstalling the engine itself (pip install --force-reinstall vllm) also brings back the CUDA torch it pins.',
  references: [
    'https://github.com/X-PLUG/MobileAgent/issues/60',
    'https://github.com/vllm-project/vllm-ascend/issues/780',
  ],
});
