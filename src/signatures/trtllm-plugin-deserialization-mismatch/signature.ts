import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'trtllm-plugin-deserialization-mismatch',
  title: 'TensorRT-LLM engine built by another TensorRT-LLM release',
  category: 'dependency-mismatch',
  engines: ['trtllm'],
  keywords: ['assertion failed'],
  match: {
    // A plugin reads back the fields it wrote into the engine and checks it read exactly the bytes stored:
    // `d == a + length` in the GPT attention plugin's constructor, `sizeof(T) <= remaining_buffer_size` in
    // the XQA cubin registry. Both fail when the layout of the release that built the engine differs.
    message:
      /Assertion failed: (?:d == a \+ length|sizeof\(T\) <= remaining_buffer_size)(?: \((?<site>[^)\s]+)\))?/,
  },
  explanation:
    'The engine holds plugin fields serialized by the TensorRT-LLM release that built it (trtllm-build), and ' +
    'the runtime here reads them with another release whose layout differs: the plugin reads a different number ' +
    'of bytes than were written and its check fails ({site}). The engine itself is intact; it belongs to another version.',
  fix:
    'Rebuild the engine with the TensorRT-LLM release that serves it: run trtllm-build inside the serving ' +
    'container (the Triton tensorrtllm_backend image pins one), or serve with the release that built it.',
  action: [
    {
      kind: 'step',
      text: 'Rebuild the engine with the TensorRT-LLM release that serves it (trtllm-build inside the serving container); this shows the release the server loads:',
    },
    {
      kind: 'command',
      argv: ['python3', '-c', 'import tensorrt_llm; print(tensorrt_llm.__version__)'],
      where: 'server',
    },
  ],
  alternative:
    "Compare the engine's config.json (`version` of the builder) with the serving release; a second " +
    'TensorRT-LLM on PYTHONPATH or LD_LIBRARY_PATH gives the same error.',
  references: [
    'https://github.com/triton-inference-server/tensorrtllm_backend/issues/191',
    'https://github.com/NVIDIA/TensorRT-LLM/issues/1749',
  ],
});
