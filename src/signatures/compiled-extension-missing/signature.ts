import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'compiled-extension-missing',
  title: "a package's compiled extension is missing",
  category: 'missing-dependency',
  engines: ['vllm', 'sglang', 'tgi'],
  keywords: ['no module named'],
  match: {
    // vllm._C, vllm._moe_C, vllm.vllm_flash_attn._vllm_fa2_C, vllm._version, sgl_kernel.common_ops, flash_attn_2_cuda.
    message: /No module named '(?<module>(?<pkg>\w+)(?:\.[\w.]*)?(?:\._\w+|_2_cuda|\.common_ops))'/,
  },
  explanation:
    '{module} is the compiled part of {pkg} (a C++/CUDA extension made when the package is built), and Python ' +
    'cannot find it. Either {pkg} runs from a source checkout that was never built, or the current directory holds ' +
    "{pkg}'s source tree and shadows the installed wheel, or the install was interrupted. Every custom kernel is " +
    'missing then, so later errors (unsupported architectures, missing operators) are only symptoms.',
  fix: 'pip install --force-reinstall --no-deps {pkg}',
  action: [{ kind: 'install', requirements: ['{pkg}'], options: ['--force-reinstall', '--no-deps'] }],
  alternative:
    'If you work in a clone of the source, start the server from another directory, or build it in place: ' +
    'pip install -e . --no-build-isolation (needs the CUDA toolkit).',
  references: ['https://github.com/vllm-project/vllm/issues/9624'],
});
