import type { ArchitectureSupport, ModelFacts } from '../../../src/environment/read-model.js';

/** Model facts for a config.json, with no engine or transformers installed unless given. */
export function modelFacts(
  config: Record<string, unknown>,
  support: Partial<ArchitectureSupport> = {},
  tokenizerMaxLength: number | null = null,
): ModelFacts {
  return {
    path: '/models/m',
    config,
    tokenizerMaxLength,
    support: { engines: [], transformers: null, ...support },
  };
}
