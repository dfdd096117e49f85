import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tokenizers-too-old-for-tokenizer-json',
  title: 'tokenizer.json was written by a newer tokenizers library',
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm'],
  keywords: ['did not match any variant of untagged enum'],
  match: {
    message: /data did not match any variant of untagged enum (?<part>\w+) at line \d+ column \d+/,
  },
  explanation:
    "The Rust tokenizers library could not parse the model's tokenizer.json: the {part} section uses a format that " +
    'the installed version does not know (for example the merges stored as pairs, written by tokenizers 0.20 and ' +
    'later). The file is fine; the tokenizers package (and usually transformers with it) is older than the one that ' +
    'saved it.',
  fix: 'pip install -U "tokenizers>=0.20" transformers',
  action: [{ kind: 'install', requirements: ['tokenizers>=0.20', 'transformers'], options: ['--upgrade'] }],
  alternative:
    'If the engine pins older versions, upgrade the engine too (its image ships matching versions), or load a ' +
    'tokenizer.json saved by an older tokenizers (e.g. from an earlier revision of the model repository).',
  references: [
    'https://github.com/huggingface/tokenizers/blob/main/tokenizers/src/models/mod.rs',
    'https://github.com/huggingface/transformers/blob/main/src/transformers/tokenization_utils_fast.py',
  ],
});
