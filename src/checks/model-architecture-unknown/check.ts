import { defineCheck, type Problem } from '../define-check.js';
import { formatInstall } from '../install-command.js';

/**
 * The model's architecture against the installed engine's model registry and its model_type against
 * transformers' AutoConfig mapping, found by reading their source files, never importing them.
 */
export default defineCheck({
  id: 'model-architecture-unknown',
  severity: 'error',
  title: 'Model architecture not supported by the installed packages',
  run: ({ model, installed }) => {
    if (model === null) return [];
    const { config, support } = model;
    const architecture = Array.isArray(config.architectures) ? String(config.architectures[0] ?? '') : '';
    const modelType = typeof config.model_type === 'string' ? config.model_type : '';
    if (config.auto_map !== undefined) {
      // The model brings its own code (trust_remote_code); the registries say nothing about it.
      return [];
    }
    const problems: Problem[] = [];
    const transformersKnows = support.transformers?.knowsArchitecture === true;
    for (const engine of support.engines) {
      if (engine.knowsArchitecture !== false || architecture === '') continue;
      problems.push({
        severity: transformersKnows ? 'warning' : 'error',
        detail: transformersKnows
          ? `${engine.name} ${engine.version} has no native implementation of ${architecture}; it will fall back to the slower Transformers backend, if this version has one.`
          : `Model architectures ['${architecture}'] are not supported for now by ${engine.name} ${engine.version} (its model registry does not name it).`,
        fix: `upgrade ${engine.name} to a release that supports ${architecture}: ${formatInstall([`${engine.name}`], installed.get(engine.name.toLowerCase()), ['--upgrade'])}`,
        packages: [engine.name],
      });
    }
    const transformers = support.transformers;
    const engineKnowsType = support.engines.some((engine) => engine.knowsModelType);
    if (
      transformers !== null &&
      transformers.knowsModelType === false &&
      modelType !== '' &&
      !engineKnowsType
    ) {
      problems.push({
        detail: `The checkpoint you are trying to load has model type \`${modelType}\` but Transformers ${transformers.version} does not recognize this architecture.`,
        fix: `upgrade transformers within what the engine allows (${formatInstall(['transformers'], installed.get('transformers'), ['--upgrade'])})`,
        packages: ['transformers'],
      });
    }
    return problems;
  },
});
