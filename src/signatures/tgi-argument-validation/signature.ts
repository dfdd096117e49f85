import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'tgi-argument-validation',
  title: 'TGI launcher rejected its token limits',
  category: 'config-invalid',
  engines: ['tgi'],
  keywords: ['argumentvalidation'],
  match: {
    message: /ArgumentValidation\("(?<detail>[^\n]*?)"\)/,
  },
  explanation:
    'text-generation-launcher checks its length limits against each other before it starts any shard, and this ' +
    'combination is inconsistent: {detail}. The limits must nest: max-input-tokens < max-total-tokens, and ' +
    'max-batch-prefill-tokens at least max-input-tokens.',
  fix:
    'Change the flags (or MAX_INPUT_TOKENS / MAX_TOTAL_TOKENS / MAX_BATCH_PREFILL_TOKENS env vars) so the relation ' +
    'in the error holds, e.g. `--max-input-tokens 65535 --max-total-tokens 65536 --max-batch-prefill-tokens 65536`.',
  alternative:
    'Leave the limits unset; recent TGI versions derive them from the model config and the free GPU memory.',
  references: ['https://github.com/bytedance/UI-TARS/issues/153'],
});
