import { defineCheck } from '../define-check.js';
import { deriveMaxModelLen } from '../model-config.js';

/** --max-model-len beyond what the model's config allows; vLLM refuses it at config validation. */
export default defineCheck({
  id: 'max-model-len-too-long',
  severity: 'error',
  title: 'Max model length beyond the model',
  run: ({ model, maxModelLen, env }) => {
    if (model === null || maxModelLen === null) return [];
    const derived = deriveMaxModelLen(model.config, model.tokenizerMaxLength);
    if (maxModelLen <= derived.value) return [];
    const allowed = (env.VLLM_ALLOW_LONG_MAX_MODEL_LEN ?? '') !== '';
    return [
      {
        severity: allowed ? 'warning' : 'error',
        detail:
          `User-specified max_model_len (${maxModelLen}) is greater than the derived max_model_len (${derived.key}=${derived.value}${derived.scaled ? ' after RoPE scaling' : ''} in model's config.json).` +
          (allowed
            ? ' VLLM_ALLOW_LONG_MAX_MODEL_LEN lets it start; positions past the derived length give NaN or out-of-bounds errors.'
            : ''),
        fix: `serve with --max-model-len ${derived.value}`,
        packages: [],
      },
    ];
  },
});
