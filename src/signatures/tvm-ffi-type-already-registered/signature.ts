import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tvm-ffi-type-already-registered',
  title: 'two TVM FFI runtimes loaded into one process',
  category: 'dependency-mismatch',
  engines: ['sglang'],
  keywords: ['is already registered for type index'],
  match: {
    message: /TypeAttr `?(?<attr>\w+)`? is already registered for type index (?<index>\d+)/,
  },
  explanation:
    'Two copies of the TVM FFI runtime ended up in one process: the standalone apache-tvm-ffi package and the one ' +
    'that tilelang (imported by SGLang kernels) bundles. When the second copy registers {attr} again for the same ' +
    'type, the C++ side throws and the process aborts, so the scheduler dies without a Python traceback. A new ' +
    'apache-tvm-ffi release that tilelang was not built against causes it.',
  fix: 'pip install tilelang "apache-tvm-ffi<0.1.12"',
  action: [{ kind: 'install', requirements: ['tilelang', 'apache-tvm-ffi<0.1.12'] }],
  alternative: 'Or upgrade tilelang to a release built against the apache-tvm-ffi you have installed.',
  references: ['https://github.com/kvcache-ai/ktransformers/pull/2048'],
});
