import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'python-module-not-found',
  title: 'a Python package is not installed',
  category: 'missing-dependency',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: ['no module named'],
  match: {
    exception: 'ModuleNotFoundError',
    // Top-level modules only; dotted and compiled ones have their own signatures.
    message: /No module named '(?!flash_attn_2_cuda')(?<module>\w+)'/,
    // Ray's placeholder for an actor whose class failed to import on a worker: ray-worker-import-failed.
    process: /^(?!TemporaryActor\b)/,
  },
  explanation:
    'Python could not import {module}: nothing installed in the environment the server runs in provides it. ' +
    'Either the feature you enabled (a quantization method, a model family, a backend) needs an optional ' +
    'dependency that was never installed, or the server runs under a different Python or virtual environment ' +
    'than the one you installed into.',
  fix: 'pip install {module}',
  action: [{ kind: 'install', requirements: ['{module}'] }],
  alternative:
    'The package name can differ from the module name (cv2 is opencv-python, PIL is pillow, yaml is pyyaml, ' +
    'sklearn is scikit-learn). Check which interpreter runs the server (the path in the traceback) and install ' +
    'into that one.',
  references: ['https://github.com/vllm-project/vllm/pull/6525'],
});
