import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'sglang-kv-pool-exhausted',
  title: "SGLang's KV cache or request pool ran out of slots",
  category: 'kv-cache-insufficient',
  engines: ['sglang'],
  keywords: ['prefill out of memory', 'decode out of memory', 'alloc_req_slots runs out of memory'],
  match: {
    // Not `Decode out of memory happened. #retracted_reqs: 3`: the scheduler retracted requests and went on.
    message: /(?<phase>Prefill|Decode) out of memory(?! happened)|alloc_req_slots runs out of memory/,
  },
  explanation:
    'The scheduler admitted more tokens (or requests) than the KV cache pool, or the request-slot pool, could hold at ' +
    'that moment, and evicting the prefix cache did not free enough. The pool is sized at start-up from ' +
    '--mem-fraction-static after the weights are loaded, so a nearly full GPU, a long --context-length or a high ' +
    '--max-running-requests leave it too small for the batches the scheduler builds.',
  fix: 'Give the KV cache more room or ask for less: raise `--mem-fraction-static` (e.g. 0.88) if the GPU is not shared, and lower `--max-running-requests` and `--chunked-prefill-size` (e.g. 4096).',
  action: [
    { kind: 'step', text: 'If the GPU is not shared, give the KV cache more room:' },
    { kind: 'engine-option', option: 'gpu-memory-utilization', value: '0.88' },
    { kind: 'step', text: 'and ask for less at once:' },
    { kind: 'engine-option', option: 'max-num-batched-tokens', value: '4096' },
  ],
  alternative:
    'Shard the model over more GPUs (`--tp 2`) or use a smaller or quantized checkpoint so more memory remains for ' +
    'the pool; with speculative decoding set `--max-running-requests` explicitly.',
  references: [
    'https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/mem_cache/common.py',
    'https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/managers/schedule_batch.py',
  ],
});
