import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../diagnosis/index.js';
import { aimSignature } from '../fix/aim-fix.js';
import { builtinSignatures } from './index.js';

/**
 * The KV-cache family's fixes carry the number the log gives (the shared corpora's logs of the family,
 * copied into the signatures' fixtures): the length vLLM says fits, the memory that is missing, the blocks or
 * tokens the cache got. A fix that says "lower it, e.g. to the estimate" while the log names it fails here.
 */
const CASES: [fixture: string, signature: string, inFix: string][] = [
  [
    'max-model-len-exceeds-kv-cache/fixtures/matches/corpus-vllm-125.log',
    'max-model-len-exceeds-kv-cache',
    '--max-model-len 16832',
  ],
  [
    'max-model-len-exceeds-kv-cache/fixtures/matches/corpus-vllm-108.log',
    'max-model-len-exceeds-kv-cache',
    '--max-model-len 79392',
  ],
  [
    'max-model-len-exceeds-kv-cache/fixtures/matches/corpus-vllm-119.log',
    'max-model-len-exceeds-kv-cache',
    '--max-model-len 10224',
  ],
  [
    'max-model-len-exceeds-kv-cache/fixtures/matches/corpus-vllm-151.log',
    'max-model-len-exceeds-kv-cache',
    '--max-model-len 121840',
  ],
  [
    'max-model-len-exceeds-kv-cache/fixtures/matches/v1-estimated-length.log',
    'max-model-len-exceeds-kv-cache',
    '--max-model-len 87840',
  ],
  [
    'vllm-kv-cache-memory-negative/fixtures/matches/weights-leave-minus-2-gib.log',
    'vllm-kv-cache-memory-negative',
    '2.14 GiB',
  ],
  [
    'vllm-cuda-graph-memory-estimate/fixtures/matches/corpus-2-vllm-041.log',
    'vllm-cuda-graph-memory-estimate',
    '118.65 GiB',
  ],
  [
    'lmdeploy-kv-cache-blocks-negative/fixtures/matches/minus-56-blocks.log',
    'lmdeploy-kv-cache-blocks-negative',
    '-56 blocks',
  ],
  [
    'trtllm-paged-kv-cache-too-small/fixtures/matches/triton-693-tokens.log',
    'trtllm-paged-kv-cache-too-small',
    '693 tokens',
  ],
];

describe('the KV-cache family: the fix names the number from its own log', () => {
  it.each(CASES)('%s', (fixture, id, inFix) => {
    const text = readFileSync(join(import.meta.dirname, fixture), 'utf8');
    const diagnosis = diagnose(text, { signatures: builtinSignatures });
    expect(diagnosis.signature?.id).toBe(id);
    expect(diagnosis.signature?.category).toBe('kv-cache-insufficient');
    expect(diagnosis.signature?.fix).toContain(inFix);
  });

  it('the same finding aimed at SGLang says SGLang’s flag, with the same number', () => {
    const text = readFileSync(
      join(import.meta.dirname, 'max-model-len-exceeds-kv-cache/fixtures/matches/corpus-vllm-125.log'),
      'utf8',
    );
    const signature = diagnose(text, { signatures: builtinSignatures }).signature;
    expect(signature).not.toBeNull();
    const aimed = aimSignature(signature!, { place: { kind: 'local' }, environment: null, engine: 'sglang' });
    expect(aimed.fix).toContain('--context-length 16832');
    expect(aimed.fix).not.toContain('--max-model-len');
  });
});
