import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'chat-template-missing',
  title: 'Tokenizer has no chat template',
  category: 'config-invalid',
  engines: ['vllm', 'sglang', 'tgi'],
  keywords: ['chat template', 'chat_template'],
  match: {
    message:
      /default chat template is no longer allowed|tokenizer\.chat_template is not set and no template argument was passed|Cannot use chat template functions because/,
  },
  explanation:
    "A chat request (or the server start-up) needed to format messages with the tokenizer's chat template, and the " +
    'tokenizer defines none: base models and some converted or community checkpoints ship without one. Since ' +
    'transformers 4.44 there is no generic fallback template any more.',
  fix:
    'Pass a template that matches how the model was trained: `--chat-template ./template.jinja` (vLLM and SGLang; SGLang ' +
    'also accepts a built-in name such as `--chat-template chatml`).',
  alternative:
    'Use the completions endpoint (/v1/completions) for a base model, or add a chat_template to tokenizer_config.json.',
  references: [
    'https://github.com/vllm-project/vllm/issues/7978',
    'https://github.com/vllm-project/vllm/issues/29849',
  ],
});
