import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'python-dev-headers-missing',
  title: "Python's C headers are not installed",
  category: 'kernel-compile',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['python.h', 'returned non-zero exit status', 'ninja build failed', 'error building extension'],
  match: {
    // The compiler's line is the candidate inside a ninja build; Triton prints it before its CalledProcessError.
    message: /Python\.h|returned non-zero exit status|Ninja build failed|Error building extension/,
    context:
      /fatal error: Python\.h: No such file or directory|include file 'Python\.h' not found|C1083:[^\n]*Python\.h/,
  },
  explanation:
    'Triton (and torch.compile through it) compiles a small C helper for each Python version the first time a ' +
    'kernel runs, and that needs Python.h from the Python development headers. The image or system has the ' +
    'Python interpreter but not its -dev package, so the build fails inside the first Triton kernel launch.',
  fix: 'apt-get install -y python3-dev build-essential (for a non-default Python, the matching python3.X-dev; conda and uv Pythons ship the headers)',
  action: [
    { kind: 'system-package', packages: ['python3-dev', 'build-essential'] },
    {
      kind: 'step',
      text: '(for a non-default Python the matching python3.X-dev; conda and uv Pythons ship the headers)',
    },
  ],
  alternative:
    'Or start with --enforce-eager (vLLM) / --disable-cuda-graph and without torch.compile to avoid some JIT builds; ' +
    'Triton kernels used by the model will still need the headers.',
  references: [
    'https://github.com/sgl-project/sglang/issues/1117',
    'https://github.com/vllm-project/vllm/issues/27890',
  ],
});
