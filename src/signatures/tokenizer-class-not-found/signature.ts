import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tokenizer-class-not-found',
  title: 'transformers does not know the tokenizer class the model asks for',
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['does not exist or is not currently imported'],
  match: {
    message: /Tokenizer class (?<cls>\w+) does not exist or is not currently imported/,
  },
  explanation:
    "The model's tokenizer_config.json names tokenizer_class {cls}, and the installed transformers has no class of " +
    'that name. Most often the checkpoint was saved by a newer transformers (TokenizersBackend is a transformers 5 ' +
    'name, new model families add their own tokenizers); otherwise the class lives in the repository as custom code ' +
    'and needs trust_remote_code, or the name is misspelt (LLaMATokenizer in early LLaMA conversions).',
  fix: 'pip install -U transformers  (then check that the engine still supports that transformers version)',
  action: [
    { kind: 'install', requirements: ['transformers'], options: ['--upgrade'] },
    { kind: 'step', text: 'then check that the engine still supports that transformers version' },
  ],
  alternative:
    'If {cls} is defined by the model repository itself, start with `--trust-remote-code`; if it is an old alias, ' +
    'edit tokenizer_class in tokenizer_config.json to the current name (e.g. LlamaTokenizer).',
  references: [
    'https://github.com/huggingface/transformers/blob/main/src/transformers/models/auto/tokenization_auto.py',
    'https://github.com/vllm-project/vllm/blob/main/vllm/transformers_utils/tokenizer.py',
  ],
  // A message that explicitly asks for trust_remote_code says more.
  weight: 0.8,
});
