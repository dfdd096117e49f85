import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFakeNvidiaSmi } from './helpers/fake-nvidia-smi.js';
import { runVigil } from './helpers/run-cli.js';
import { makeTempDir, writeEnvironment } from './helpers/write-environment.js';

let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

const LLAMA = join(import.meta.dirname, '../fixtures/model-configs/meta-llama--Llama-3.1-8B-Instruct');
const ID = 'meta-llama/Llama-3.1-8B-Instruct';

/** huggingface_hub's layout: models--ORG--NAME/refs/main naming snapshots/REV/ with the files. */
function writeHubCache(hub: string): void {
  const repo = join(hub, 'models--meta-llama--Llama-3.1-8B-Instruct');
  const snapshot = join(repo, 'snapshots', '0e9e39f249a16976918f6564b8830bc894c89659');
  mkdirSync(snapshot, { recursive: true });
  mkdirSync(join(repo, 'refs'));
  writeFileSync(join(repo, 'refs', 'main'), '0e9e39f249a16976918f6564b8830bc894c89659');
  for (const name of ['config.json', 'model.safetensors.index.json']) {
    writeFileSync(join(snapshot, name), readFileSync(join(LLAMA, name)));
  }
}

function findings(stdout: string): { id: string; severity: string; detail: string; fix: string | null }[] {
  return (
    JSON.parse(stdout) as { findings: { id: string; severity: string; detail: string; fix: string | null }[] }
  ).findings;
}

async function check(env: Record<string, string>): Promise<ReturnType<typeof findings>> {
  const { sitePackages } = writeEnvironment(join(dir.path, 'venv'), []);
  const path = writeFakeNvidiaSmi(dir.path, { gpus: ['NVIDIA L4, 8.9, 575.51.03, 300, 23034'] });
  const result = await runVigil(
    [
      'check',
      '--format',
      'json',
      '--site-packages',
      sitePackages,
      '--',
      'vllm',
      'serve',
      ID,
      '--max-model-len',
      '131072',
    ],
    { env: { PATH: path, HOME: dir.path, ...env } },
  );
  return findings(result.stdout);
}

describe('vigil check -- vllm serve ORG/NAME: the model from the local Hugging Face cache', () => {
  it.each([
    ['HF_HUB_CACHE', (root: string) => ({ HF_HUB_CACHE: join(root, 'hub-cache') }), 'hub-cache'],
    ['HF_HOME', (root: string) => ({ HF_HOME: join(root, 'hf-home') }), 'hf-home/hub'],
    ['~/.cache/huggingface/hub', () => ({}), '.cache/huggingface/hub'],
  ])('found through %s: the memory fit runs and names the KV cache', async (_how, envOf, folder) => {
    writeHubCache(join(dir.path, folder));
    const found = await check(envOf(dir.path));
    const fit = found.find((f) => f.id === 'kv-cache-too-small');
    expect(fit?.severity).toBe('error');
    expect(fit?.detail).toMatch(/131072-token sequence.*KV cache|KV cache.*131072/);
    expect(found.some((f) => f.id === 'model-not-read')).toBe(false);
  });

  it('not in the cache: a note says which model checks were not run and why', async () => {
    const found = await check({ HF_HUB_CACHE: join(dir.path, 'empty') });
    const note = found.find((f) => f.id === 'model-not-read');
    expect(note?.severity).toBe('info');
    expect(note?.detail).toContain(`${ID} is not in the local Hugging Face cache`);
    expect(note?.detail).toContain('memory-fit (KV cache)');
    expect(note?.fix).toBe(`hf download ${ID}`);
    expect(found.some((f) => f.id === 'kv-cache-too-small')).toBe(false);
  });
});
