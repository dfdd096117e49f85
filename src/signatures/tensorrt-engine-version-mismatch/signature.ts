import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tensorrt-engine-version-mismatch',
  title: 'TensorRT engine built with another TensorRT version',
  category: 'dependency-mismatch',
  engines: ['trtllm'],
  keywords: ['version tag does not match', 'plan file is not compatible with this version of tensorrt'],
  match: {
    // TRT 8/9/10: `Serialization assertion stdVersionRead == kSERIALIZATION_VERSION failed.Version tag does not
    // match. Note: Current Version: 226, Serialized Engine Version: 228` (also safeVersionRead); older TensorRT:
    // `The engine plan file is not compatible with this version of TensorRT, expecting library version X got Y`.
    message: /Version tag does not match|engine plan file is not compatible with this version of TensorRT/,
  },
  explanation:
    'A serialized TensorRT engine only loads in the TensorRT release that built it. The engine files were produced ' +
    'by trtllm-build (or build.py) under one TensorRT, and the runtime here (a Triton tensorrtllm_backend image, ' +
    'another TensorRT-LLM wheel, a second TensorRT on LD_LIBRARY_PATH) links a different one, so deserialization ' +
    'fails and whatever uses the engine crashes afterwards (AssertionError, segfault).',
  fix:
    'Rebuild the engine with the same TensorRT-LLM / TensorRT version that serves it (run trtllm-build inside the ' +
    'serving container), or serve with the container release that matches the one used to build.',
  action: [
    {
      kind: 'step',
      text: 'Rebuild the engine with the same TensorRT-LLM / TensorRT version that serves it (trtllm-build inside the serving container); this shows the TensorRT the server loads:',
    },
    {
      kind: 'command',
      argv: ['python3', '-c', 'import tensorrt; print(tensorrt.__version__)'],
      where: 'server',
    },
  ],
  alternative:
    'Check which TensorRT each side loads (`python -c "import tensorrt; print(tensorrt.__version__)"` and ' +
    '`ldconfig -p | grep nvinfer`); two installs on one machine give the same error.',
  references: [
    'https://github.com/triton-inference-server/tensorrtllm_backend/issues/190',
    'https://github.com/NVIDIA/TensorRT-LLM/issues/660',
  ],
});
