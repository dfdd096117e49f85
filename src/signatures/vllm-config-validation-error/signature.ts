import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'vllm-config-validation-error',
  title: 'vLLM rejected its configuration',
  category: 'config-invalid',
  engines: ['vllm'],
  keywords: ['value error, '],
  match: {
    message: /Value error, (?<detail>[^[\n]*[^[\n\s.])/,
  },
  explanation:
    'vLLM validates the engine arguments together with the model config before it loads anything, and this ' +
    'combination was refused: {detail}. Nothing is wrong with the GPU or the installation; one of the arguments (or a ' +
    'value derived from the model config) does not fit the others.',
  fix: 'Change the argument the message names so that the condition holds, then start again ({detail}).',
  alternative:
    'Run `vllm serve --help=<argument>` (or see the engine arguments page) for the allowed values.',
  references: ['https://docs.vllm.ai/en/stable/configuration/engine_args/'],
  // A catch-all for pydantic-wrapped config errors: any signature that knows the specific message wins.
  weight: 0.3,
});
