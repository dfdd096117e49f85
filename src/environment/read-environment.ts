import { indexDistributions } from './index-distributions.js';
import { locateEnvironment, type EnvironmentOptions } from './locate-environment.js';
import { readDistributions } from './read-distributions.js';
import { readModuleVersions } from './read-module-versions.js';
import type { PythonEnvironment } from './types.js';

/** Locates the environment and reads every distribution in it, in sys.path order. */
export async function readEnvironment(options: EnvironmentOptions): Promise<PythonEnvironment> {
  const location = await locateEnvironment(options);
  const environment: PythonEnvironment = {
    ...location,
    distributions: [],
    unreadable: [],
    modules: { buildMeta: {} },
  };
  for (const folder of location.sitePackages) {
    const reading = readDistributions(folder);
    environment.distributions.push(...reading.distributions);
    environment.unreadable.push(...reading.unreadable);
  }
  environment.modules = readModuleVersions(indexDistributions(environment.distributions));
  return environment;
}
