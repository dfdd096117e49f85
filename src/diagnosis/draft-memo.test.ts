import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLine } from '../parsing/parse-line.js';
import { draftFromLine, fingerprintDraft } from './collect-candidates.js';
import { DraftMemo, type LineDraft } from './draft-memo.js';

/** What readFailure got before the memo: each line drafted and fingerprinted on its own. */
const draftAlone = (raw: string, n: number): LineDraft => {
  const draft = draftFromLine(parseLine(raw, n));
  if (draft === null || draft === 'noise') return draft;
  return { draft, fingerprint: fingerprintDraft(draft) };
};

const prefixes = [
  'Feb 17 09:28:57 gpu-node-07 vllm[3190412]: (APIServer pid=3190412) ERROR 02-17 09:28:57 [serving_engine.py:461] ',
  'Feb 17 09:28:58 gpu-node-07 vllm[3190412]: (Worker_TP3 pid=3190724) WARNING 02-17 09:28:58 [utils.py:12] ',
  'Feb 17 09:28:59 gpu-node-07 vllm[3190412]: (EngineCore_DP0 pid=3190655) INFO 02-17 09:28:59 [core.py:1] ',
  '[rank2]: ',
  '',
];
const messages = [
  "Error with model error=ErrorInfo(message='x is not a valid tool call', type='BadRequestError', param=None, code=400)",
  'Error in request chatcmpl-53581fcc2fd56e080b7913a56cc58d9b: prompt needs 133317 tokens',
  'RuntimeError: CUDA error: an illegal memory access was encountered',
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.',
  'FutureWarning: this will change',
  'Failed to import from vllm._C with ImportError("libcudart.so.12: cannot open shared object file")',
  'No module named vllm._C',
  'everything is fine',
  '  File "/opt/x.py", line 3, in <module>',
  'terminate called after throwing an instance of std::runtime_error',
];

describe('DraftMemo', () => {
  it('gives every line what drafting it alone gives, its own line included', () => {
    const line = fc.record({
      prefix: fc.constantFrom(...prefixes),
      message: fc.constantFrom(...messages),
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 40 }), (lines) => {
        const memo = new DraftMemo();
        lines.forEach(({ prefix, message }, i) => {
          const raw = prefix + message;
          const parsed = parseLine(raw, i + 1);
          const drafted = memo.draft(parsed);
          expect(drafted).toEqual(draftAlone(raw, i + 1));
          if (drafted !== null && drafted !== 'noise') expect(drafted.draft.line).toBe(parsed);
        });
      }),
    );
  });

  it('gives each repeat its own frames and detail, not the first draft’s', () => {
    const memo = new DraftMemo();
    const raw = `${prefixes[0]}${messages[0]}`;
    const first = memo.draft(parseLine(raw, 1));
    const second = memo.draft(parseLine(raw, 2));
    if (first === null || first === 'noise' || second === null || second === 'noise') {
      throw new Error('a request error is a draft');
    }
    expect(second.draft.line.n).toBe(2);
    expect(second.draft.frames).not.toBe(first.draft.frames);
    expect(second.draft.detail).not.toBe(first.draft.detail);
  });

  it('starts again once it holds its most texts, and still answers alike', () => {
    const memo = new DraftMemo();
    for (let i = 0; i < 10_000; i++) {
      const raw = `${prefixes[0]}Error in request ${i}: prompt too long`;
      expect(memo.draft(parseLine(raw, i + 1))).toEqual(draftAlone(raw, i + 1));
    }
  });
});
