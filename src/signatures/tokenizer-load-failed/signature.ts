import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tokenizer-load-failed',
  title: 'Tokenizer files not found for the model or --tokenizer path',
  category: 'config-invalid',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ["can't load tokenizer for"],
  match: {
    message: /Can't load tokenizer for '(?<name>[^'\n]+)'/,
  },
  explanation:
    'transformers looked for tokenizer files (tokenizer.json, tokenizer_config.json, tokenizer.model) under {name} and ' +
    'found none it could use. Typical causes: a local directory that holds only the weights, a `--tokenizer` argument ' +
    'pointing at the wrong path, or a local folder with the same name as the Hub repo shadowing it.',
  fix:
    'Point the server at a directory or repo that contains the tokenizer files, e.g. `--tokenizer <original-hub-repo>` ' +
    '(vLLM; SGLang `--tokenizer-path`), or copy the tokenizer files into {name}.',
  alternative:
    'If {name} is a Hub id, make sure no local folder with that name exists in the working directory and that the ' +
    'download is not blocked (HF_HUB_OFFLINE, missing token for a private repo).',
  references: [
    'https://github.com/hiyouga/LlamaFactory/issues/8502',
    'https://github.com/openvla/openvla/issues/82',
  ],
});
