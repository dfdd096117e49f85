import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'torchvision-torch-mismatch',
  title: 'torchvision built for a different torch',
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ['torchvision::'],
  match: {
    exception: 'RuntimeError',
    message: /operator torchvision::(?<op>\w+) does not exist/,
  },
  explanation:
    'torchvision registers its C++ operators (here torchvision::{op}) when it is imported, and its compiled library ' +
    'only loads under the exact torch release it was built for. torch was upgraded or downgraded afterwards (often ' +
    'as a side effect of installing an engine that pins another torch), so the old torchvision library failed to ' +
    'load silently and the operator was never registered.',
  fix: 'pip install torchvision "torch==$(python -c \'import torch; print(torch.__version__)\' | cut -d+ -f1)"',
  action: [
    {
      kind: 'step',
      text: "Install the torchvision release built for your torch, pinning torch to the version it has now (python -c 'import torch; print(torch.__version__)')",
    },
  ],
  alternative:
    'That keeps torch and lets pip pick the torchvision release paired with it (torchvision 0.N+15 goes with torch ' +
    '2.N, e.g. 0.21 with 2.6). If torch came from download.pytorch.org, add the same --index-url (e.g. ' +
    'https://download.pytorch.org/whl/cu128) so both are the same CUDA build.',
  references: ['https://github.com/pytorch/vision#installation'],
});
