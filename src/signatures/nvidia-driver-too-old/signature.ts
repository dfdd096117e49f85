import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'nvidia-driver-too-old',
  title: 'NVIDIA driver too old for the CUDA build of torch',
  category: 'driver-cuda-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ['driver on your system is too old'],
  match: {
    message: /The NVIDIA driver on your system is too old \(found version (?<found>\d+)\)/,
  },
  explanation:
    'torch was built for a newer CUDA than the installed NVIDIA driver supports. The driver reports CUDA API ' +
    'version {found} (e.g. 11040 is CUDA 11.4, 12020 is CUDA 12.2), and a driver only runs CUDA builds up to its ' +
    'own version, so CUDA cannot be initialised; later errors (missing driver symbols, no GPU found) follow ' +
    'from this.',
  fix: 'Upgrade the NVIDIA driver to one that supports the CUDA version of your torch (python -c "import torch; print(torch.version.cuda)"); nvidia-smi shows the highest CUDA the current driver supports',
  action: [
    { kind: 'step', text: 'Compare the highest CUDA the driver supports (top right of this):' },
    { kind: 'command', argv: ['nvidia-smi'], where: 'host' },
    {
      kind: 'step',
      text: 'with the CUDA of your torch (torch.version.cuda), and upgrade the NVIDIA driver to one that supports it',
    },
  ],
  alternative:
    'Or install torch and the engine built for an older CUDA that the driver supports, e.g. pip install torch ' +
    '--index-url https://download.pytorch.org/whl/cu118 with the matching +cu118 engine wheel.',
  references: ['https://github.com/vllm-project/vllm/issues/11623'],
});
