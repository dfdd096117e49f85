import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'max-model-len-above-position-embeddings',
  title: 'Requested context length above what the model was trained for',
  category: 'config-invalid',
  engines: ['vllm', 'sglang'],
  keywords: ['is greater than the derived'],
  match: {
    message:
      /User-specified (?<knob>max_model_len|context_length) \((?<want>\d+)\) is greater than the derived (?:max_model_len|context_length) \((?<derived>(?:max_position_embeddings=(?<positions>\d+))?[^)\n]*)\)/,
  },
  explanation:
    'The requested {knob} of {want} tokens is longer than the model config allows ({derived}). Positions past the ' +
    'trained length produce wrong output or NaNs unless the model is configured for context extension (e.g. RoPE/YaRN ' +
    'scaling), so the engine stops at config validation.',
  fix: "Ask for at most the model's length: vLLM `--max-model-len` / SGLang `--context-length` no larger than the value in ({derived}).",
  action: [{ kind: 'engine-option', option: 'max-model-len', value: '{positions}' }],
  alternative:
    'If you extend the context on purpose (YaRN via `--hf-overrides` or rope_scaling in config.json), allow it with ' +
    'VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (vLLM) or SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 (SGLang).',
  references: ['https://docs.vllm.ai/en/stable/configuration/engine_args/'],
});
