import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../diagnosis/index.js';
import { aimSignature } from '../../fix/aim-fix.js';
import { builtinSignatures } from '../index.js';

const LOG = readFileSync(new URL('fixtures/matches/vllm-bad-revision.log', import.meta.url), 'utf8');

function fixOf(log: string): string | undefined {
  const signature = diagnose(log, { signatures: builtinSignatures }).signature;
  expect(signature?.id).toBe('hf-revision-not-found');
  if (signature === null) return undefined;
  return aimSignature(signature, { place: { kind: 'local' }, environment: null, engine: 'vllm' }).fix;
}

describe('hf-revision-not-found: the refs of the repo the log asked for', () => {
  it('lists them for the repo in the URL huggingface_hub printed after its exception', () => {
    expect(fixOf(LOG)).toBe(
      'git ls-remote https://huggingface.co/mistralai/Mistral-7B-Instruct-v0.3\n' +
        'then pass one of the branches, tags or commits it lists for mistralai/Mistral-7B-Instruct-v0.3 as the revision, or drop the revision option to use main',
    );
  });

  it('keeps the words when the log names no repo (match.captures is needed by nothing)', () => {
    expect(fixOf(LOG.replace(/https:\/\/huggingface\.co\/\S+/g, ''))).toMatch(/^List the refs with/);
  });
});
