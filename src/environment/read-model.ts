import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SourceError } from '../errors.js';
import type { Distribution } from './types.js';

/** What the model folder and the installed packages say about serving it. */
export interface ModelFacts {
  path: string;
  config: Record<string, unknown>;
  /** tokenizer_config.json model_max_length, which vLLM also caps by. */
  tokenizerMaxLength: number | null;
  support: ArchitectureSupport;
  /** Checkpoint size: the safetensors index's total_size, else the .safetensors files; null when neither. */
  weights?: { bytes: number; source: string } | null;
}

/** For each installed engine and transformers: whether its source names the architecture (null: not found). */
export interface ArchitectureSupport {
  engines: { name: string; version: string; knowsArchitecture: boolean | null; knowsModelType: boolean }[];
  transformers: { version: string; knowsModelType: boolean | null; knowsArchitecture: boolean | null } | null;
}

/** Reads config.json (required) and tokenizer_config.json; a missing or invalid config is an input error. */
export function readModel(folder: string, installed: ReadonlyMap<string, Distribution>): ModelFacts {
  const path = resolve(folder);
  const configPath = join(path, 'config.json');
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(configPath, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : 'not valid JSON';
    throw new SourceError(`--model ${folder}: ${configPath} is ${reason}`, { cause: error });
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new SourceError(`--model ${folder}: config.json is not a JSON object`);
  }
  const record = config as Record<string, unknown>;
  const tokenizer = readJson(join(path, 'tokenizer_config.json'));
  const maxLength = tokenizer?.model_max_length;
  const architecture =
    (Array.isArray(record.architectures) ? String(record.architectures[0] ?? '') : '') || null;
  const modelType = typeof record.model_type === 'string' ? record.model_type : null;
  return {
    path,
    config: record,
    tokenizerMaxLength: typeof maxLength === 'number' ? maxLength : null,
    support: readArchitectureSupport(installed, architecture, modelType),
    weights: readWeightSize(path),
  };
}

/** total_size from model.safetensors.index.json (what the shards hold), else the shards' file sizes. */
function readWeightSize(folder: string): { bytes: number; source: string } | null {
  const index = readJson(join(folder, 'model.safetensors.index.json'));
  const metadata = index?.metadata;
  const total =
    typeof metadata === 'object' && metadata !== null
      ? (metadata as Record<string, unknown>).total_size
      : undefined;
  if (typeof total === 'number' && total > 0)
    return { bytes: total, source: 'model.safetensors.index.json total_size' };
  let bytes = 0;
  let files = 0;
  try {
    for (const name of readdirSync(folder)) {
      if (!name.endsWith('.safetensors')) continue;
      bytes += statSync(join(folder, name)).size;
      files++;
    }
  } catch {
    return null;
  }
  return files === 0 ? null : { bytes, source: `${files} .safetensors file(s)` };
}

// Where each engine lists the architectures it implements, and its own config classes for model types.
const ENGINES = [
  { key: 'vllm', registry: ['vllm/model_executor/models/registry.py'], configs: ['vllm/transformers_utils'] },
  { key: 'sglang', registry: ['sglang/srt/models'], configs: ['sglang/srt/configs'] },
];

function readArchitectureSupport(
  installed: ReadonlyMap<string, Distribution>,
  architecture: string | null,
  modelType: string | null,
): ArchitectureSupport {
  const engines = ENGINES.flatMap(({ key, registry, configs }) => {
    const distribution = installed.get(key);
    if (distribution === undefined) return [];
    const registryText = readSources(distribution.sitePackages, registry);
    const configText = readSources(distribution.sitePackages, configs) ?? '';
    return [
      {
        name: distribution.name,
        version: distribution.version,
        knowsArchitecture:
          architecture === null || registryText === null ? null : mentions(registryText, architecture),
        knowsModelType: modelType !== null && mentionsQuoted(configText, modelType),
      },
    ];
  });
  const transformers = installed.get('transformers');
  if (transformers === undefined) return { engines, transformers: null };
  const auto = 'transformers/models/auto';
  const configText = readSources(transformers.sitePackages, [`${auto}/configuration_auto.py`]);
  const modelingText = readSources(transformers.sitePackages, [`${auto}/modeling_auto.py`]);
  return {
    engines,
    transformers: {
      version: transformers.version,
      knowsModelType:
        modelType === null || configText === null ? null : mentionsQuoted(configText, modelType),
      knowsArchitecture:
        architecture === null || modelingText === null ? null : mentionsQuoted(modelingText, architecture),
    },
  };
}

/** The text of the listed files, or of every .py file in listed folders; null when none exists. */
function readSources(sitePackages: string, paths: string[]): string | null {
  const texts: string[] = [];
  for (const relative of paths) {
    const path = join(sitePackages, relative);
    try {
      texts.push(readFileSync(path, 'utf8'));
      continue;
    } catch {
      // Perhaps a folder.
    }
    try {
      for (const name of readdirSync(path, { recursive: true, encoding: 'utf8' })) {
        if (name.endsWith('.py')) texts.push(readFileSync(join(path, name), 'utf8'));
      }
    } catch {
      // Neither: this release lays its registry out differently.
    }
  }
  return texts.length === 0 ? null : texts.join('\n');
}

function mentions(text: string, word: string): boolean {
  return new RegExp(`\\b${word.replace(/[^\w]/g, '\\$&')}\\b`).test(text);
}

function mentionsQuoted(text: string, word: string): boolean {
  return text.includes(`"${word}"`) || text.includes(`'${word}'`);
}

function readJson(path: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
