import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'numpy-abi-mismatch',
  title: 'compiled module built for NumPy 1.x running on NumPy 2',
  category: 'abi-or-symbol',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy'],
  keywords: [
    'numpy 1.x cannot be run in',
    'numpy.dtype size changed',
    '_array_api not found',
    'numpy.core.multiarray failed to import',
  ],
  match: {
    message:
      /compiled using NumPy 1\.x cannot be run in\s+NumPy \d|numpy\.dtype size changed, may indicate binary incompatibility|_ARRAY_API not found|numpy\.core\.multiarray failed to import/,
  },
  explanation:
    'A compiled module in the environment was built against the NumPy 1.x C API, but NumPy 2 is installed; NumPy ' +
    '2 changed its binary interface, so such modules refuse to load or crash. Installing or upgrading any package ' +
    'that allows numpy>=2 pulls NumPy 2 in while older compiled packages stay behind.',
  fix: 'pip install "numpy<2"',
  action: [{ kind: 'install', requirements: ['numpy<2'] }],
  alternative:
    'Or upgrade the package whose compiled module failed (named in the traceback) to a release built for NumPy 2.',
  references: ['https://numpy.org/devdocs/numpy_2_0_migration_guide.html'],
});
