import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'trust-remote-code-required',
  title: 'Model needs its own Python code (trust_remote_code)',
  category: 'config-invalid',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ['trust_remote_code', 'trust-remote-code'],
  match: {
    message:
      /requires you to execute the (?:configuration|tokenizer) file in that repo|contains custom code which must be executed|Please pass the argument `trust_remote_code=True`|set the option `trust_remote_code=True`/,
  },
  explanation:
    'The checkpoint ships its own configuration, tokenizer or modeling code in the repository (an auto_map entry in ' +
    'config.json) instead of relying on classes built into transformers. Loading it means executing that code, which ' +
    'transformers refuses unless you opt in explicitly.',
  fix:
    'Review the repository code, then start the server with `--trust-remote-code` (vLLM, SGLang, TGI; in Python ' +
    '`trust_remote_code=True`).',
  action: [
    {
      kind: 'step',
      text: 'Review the repository code, then let the server run it (in Python: trust_remote_code=True):',
    },
    { kind: 'engine-option', option: 'trust-remote-code' },
  ],
  alternative:
    'Upgrade transformers (and the engine) if the architecture has since been added natively; then no remote code is needed.',
  references: [
    'https://github.com/vllm-project/vllm/issues/5244',
    'https://github.com/vllm-project/vllm/issues/595',
  ],
});
