import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'flash-attn-abi-mismatch',
  title: 'flash-attn built against a different PyTorch',
  category: 'abi-or-symbol',
  engines: ['tgi', 'vllm', 'sglang', 'lmdeploy'],
  keywords: ['flash_attn_2_cuda'],
  match: {
    message: /flash_attn_2_cuda[\w.-]*\.so: undefined symbol: (?<symbol>\w+)/,
  },
  explanation:
    'flash-attn keeps its CUDA kernels in flash_attn_2_cuda, compiled against one exact torch release (and CUDA ' +
    'version and C++ ABI flag). The torch installed now is a different one, so the library asks for {symbol}, which ' +
    'this torch does not export. A prebuilt wheel made for another torch, or a torch upgrade after building ' +
    'flash-attn, causes it.',
  fix: 'pip install --force-reinstall --no-cache-dir --no-build-isolation --no-deps flash-attn',
  action: [
    {
      kind: 'install',
      requirements: ['flash-attn'],
      options: ['--force-reinstall', '--no-cache-dir', '--no-build-isolation', '--no-deps'],
    },
  ],
  alternative:
    'That rebuilds it against the installed torch (it needs nvcc and takes a while). Or install the wheel from ' +
    'https://github.com/Dao-AILab/flash-attention/releases whose name matches your torch, CUDA, Python and ' +
    'cxx11abi flag.',
  references: ['https://github.com/Dao-AILab/flash-attention/releases'],
});
