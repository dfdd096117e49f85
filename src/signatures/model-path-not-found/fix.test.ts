import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../diagnosis/index.js';
import { aimSignature } from '../../fix/aim-fix.js';
import type { FixPlace } from '../../fix/fix-action.js';
import { builtinSignatures } from '../index.js';

const log = (name: string): string =>
  readFileSync(new URL(`fixtures/matches/${name}`, import.meta.url), 'utf8');

function fixOf(name: string, place: FixPlace): string | undefined {
  const signature = diagnose(log(name), { signatures: builtinSignatures }).signature;
  expect(signature?.id).toBe('model-path-not-found');
  return signature === null
    ? undefined
    : aimSignature(signature, { place, environment: null, engine: 'vllm' }).fix;
}

describe('model-path-not-found: the path the log names, checked where the server runs', () => {
  it('vLLM’s message: ls of that path’s config.json, in the container', () => {
    const fix = fixOf('vllm-invalid-repo.log', { kind: 'container', runtime: 'docker', name: 'vllm' });
    expect(fix?.split('\n')[0]).toBe('docker exec vllm ls -lL /mnt/models/config.json');
    expect(fix).toMatch(/mount the model directory/);
  });

  it('huggingface_hub’s validation: the id it was given, on this host', () => {
    const text = log('hf-validation.log');
    const given = /namespace\/repo_name'\S*: '([^']+)'/.exec(text)?.[1];
    expect(given).toBeDefined();
    const fix = fixOf('hf-validation.log', { kind: 'local' });
    expect(fix?.split('\n')[0]).toMatch(/^ls -lL '?\/\S+\/config\.json'?$/);
    expect(fix).toContain(String(given));
  });
});
