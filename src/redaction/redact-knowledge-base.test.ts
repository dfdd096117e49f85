import { describe, expect, it } from 'vitest';
import { aimSignature } from '../fix/aim-fix.js';
import { builtinSignatures } from '../signatures/index.js';
import { redactText } from './redact-text.js';

// redactDiagnosis rewrites every string, the signature's own text included: Vigil's advice (which quotes
// placeholders such as `-e HF_TOKEN=hf_...`) must come through unchanged.
describe('redaction leaves the knowledge base alone', () => {
  it('changes no title, explanation, fix, alternative or reference of a built-in signature', () => {
    const changed = builtinSignatures.flatMap((signature) =>
      [
        signature.title,
        signature.explanation,
        signature.fix,
        signature.alternative ?? '',
        // The fix as data, written out as an operator reads it (HF_TOKEN=hf_... in a step or a variable).
        aimSignature(
          { ...signature, explanation: '' },
          { place: { kind: 'local' }, environment: null, engine: signature.engines[0] ?? null },
        ).fix,
        ...signature.references,
      ]
        .filter((text) => redactText(text) !== text)
        .map((text) => `${signature.id}: ${text} → ${redactText(text)}`),
    );
    expect(changed).toEqual([]);
  });
});
