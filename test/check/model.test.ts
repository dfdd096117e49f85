import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SourceError } from '../../src/errors.js';
import { runCheck, type CheckOptions } from '../../src/environment/index.js';
import { makeTempDir, writeEnvironment } from './helpers/write-environment.js';

let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

// Trimmed copies of the files read: vLLM's registry dict and transformers' CONFIG_MAPPING_NAMES.
const VLLM_REGISTRY =
  '_TEXT_GENERATION_MODELS = {\n    "LlamaForCausalLM": ("llama", "LlamaForCausalLM"),\n    "Qwen3ForCausalLM": ("qwen3", "Qwen3ForCausalLM"),\n}\n';
const CONFIG_AUTO =
  'CONFIG_MAPPING_NAMES = OrderedDict(\n    [\n        ("llama", "LlamaConfig"),\n        ("qwen3", "Qwen3Config"),\n    ]\n)\n';
const MODELING_AUTO =
  'MODEL_FOR_CAUSAL_LM_MAPPING_NAMES = OrderedDict([("llama", "LlamaForCausalLM"), ("qwen3", "Qwen3ForCausalLM")])\n';

function writeModel(config: Record<string, unknown>): string {
  const folder = join(dir.path, 'model');
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'config.json'), JSON.stringify(config));
  return folder;
}

async function modelFindings(config: Record<string, unknown>, options: Partial<CheckOptions> = {}) {
  const { sitePackages } = writeEnvironment(join(dir.path, 'venv'), [
    { name: 'vllm', version: '0.10.0', modules: { 'vllm/model_executor/models/registry.py': VLLM_REGISTRY } },
    {
      name: 'transformers',
      version: '4.55.0',
      modules: {
        'transformers/models/auto/configuration_auto.py': CONFIG_AUTO,
        'transformers/models/auto/modeling_auto.py': MODELING_AUTO,
      },
    },
  ]);
  const report = await runCheck({
    sitePackages: [sitePackages],
    env: { PATH: '/nonexistent' },
    model: writeModel(config),
    ...options,
  });
  return report.findings.filter(
    (f) => !['disk-space-low', 'shm-too-small', 'gpu-unavailable'].includes(f.id),
  );
}

const qwen = {
  architectures: ['Qwen3ForCausalLM'],
  model_type: 'qwen3',
  num_attention_heads: 64,
  num_key_value_heads: 8,
  max_position_embeddings: 40960,
};

describe('--model', () => {
  it('is quiet for a model the installed vLLM and transformers know, with a fitting --tp and length', async () => {
    expect(await modelFindings(qwen, { tp: 8, maxModelLen: 32768 })).toEqual([]);
  });

  it('flags an architecture and model type nobody installed knows', async () => {
    const findings = await modelFindings({ ...qwen, architectures: ['Glm5ForCausalLM'], model_type: 'glm5' });
    expect(findings.map((f) => [f.id, f.severity])).toEqual([
      ['model-architecture-unknown', 'error'],
      ['model-architecture-unknown', 'error'],
    ]);
    expect(findings[0]?.detail).toContain(
      "Model architectures ['Glm5ForCausalLM'] are not supported for now by vllm 0.10.0",
    );
  });

  it('flags --tp that does not divide the heads and --max-model-len past the config', async () => {
    const findings = await modelFindings(qwen, { tp: 6, maxModelLen: 131072 });
    expect(findings.map((f) => f.id)).toEqual(['tp-not-dividing-heads', 'max-model-len-too-long']);
  });

  it('is an input error without config.json', async () => {
    const { sitePackages } = writeEnvironment(join(dir.path, 'venv'), []);
    const model = join(dir.path, 'empty');
    mkdirSync(model);
    await expect(runCheck({ sitePackages: [sitePackages], model })).rejects.toThrow(SourceError);
    await expect(runCheck({ sitePackages: [sitePackages], model })).rejects.toThrow(
      /config\.json is not found/,
    );
  });
});
