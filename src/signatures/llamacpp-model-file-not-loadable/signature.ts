import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'llamacpp-model-file-not-loadable',
  title: 'llama.cpp could not open the model file',
  category: 'config-invalid',
  engines: ['llamacpp', 'ollama'],
  keywords: ['failed to load model from', 'failed to open gguf file', 'gguf_init_from_file'],
  match: {
    message:
      /(?:failed to load model from|(?:gguf_init_from_file: )?failed to open(?: GGUF file)?) '?(?<path>[^'\s:]+)/,
  },
  explanation:
    'llama.cpp stopped before reading any tensor: the file at {path} could not be opened as a GGUF model. Usually the ' +
    'path is wrong (a relative path resolved from another working directory, an example script pointing at a model you ' +
    'never downloaded, a volume not mounted in the container), or the file is not GGUF at all.',
  fix: 'Check the path with `ls -l {path}` and pass the GGUF file that exists with `-m /absolute/path/model.gguf`.',
  action: [
    { kind: 'step', text: 'Check the path:' },
    { kind: 'command', argv: ['ls', '-l', '{path}'], where: 'server' },
    { kind: 'step', text: 'and pass the GGUF file that exists with -m /absolute/path/model.gguf' },
  ],
  alternative:
    'If the file is there, make sure it is a complete GGUF (a .safetensors or .bin file has to be converted with ' +
    'convert_hf_to_gguf.py first) and that the process may read it.',
  references: ['https://github.com/ggml-org/llama.cpp/issues/8516'],
});
