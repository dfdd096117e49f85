import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'torch-extension-abi-mismatch',
  title: 'compiled extension built against a different PyTorch',
  category: 'abi-or-symbol',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ['undefined symbol', 'symbol not found'],
  match: {
    // A mangled C++ symbol (`_Z...`, `__Z...` on macOS) missing from torch's libraries. flash-attn has its own
    // signature; torchvision's optional image extension is a harmless warning.
    message:
      /(?<![\w.-])(?<lib>(?!flash_attn_2_cuda|image\.so)[\w.-]+\.(?:so|dylib|pyd))\b[^\n]*?(?:undefined symbol|Symbol not found): _?(?<symbol>_Z\w+)/,
  },
  explanation:
    '{lib} is a compiled extension built against a different PyTorch than the one installed. It calls the C++ ' +
    'function {symbol}, whose mangled name only exists in the torch release it was compiled for (torch has no ' +
    'stable C++ ABI). torch was upgraded or downgraded after the extension was installed, typically by installing ' +
    'another package that pins another torch, or the extension wheel is older or newer than the engine expects.',
  fix:
    'pip check (it shows which torch each package requires), then pip install "torch==<that version>"; or reinstall ' +
    'the package that owns {lib} so it matches your torch: pip install --force-reinstall --no-deps <package>',
  action: [
    { kind: 'inspect-packages' },
    {
      kind: 'step',
      text: 'then install the torch it names, or reinstall the package that owns {lib} for your torch (in a container: in the image)',
    },
  ],
  alternative:
    'For a source build (vLLM, sgl-kernel), rebuild it in the environment that has the final torch: ' +
    'pip install -e . --no-build-isolation.',
  references: [
    'https://github.com/vllm-project/vllm/issues/5501',
    'https://github.com/sgl-project/sglang/issues/8373',
    'https://github.com/vllm-project/vllm/issues/15066',
  ],
});
