import type { CheckContext } from '../../../src/checks/define-check.js';
import { collectRequirementEdges } from '../../../src/checks/requirement-edges.js';
import { describeHostMarkers } from '../../../src/environment/host-markers.js';
import { indexDistributions } from '../../../src/environment/index-distributions.js';
import { normalizeName } from '../../../src/environment/normalize-name.js';
import { parseRequirement } from '../../../src/environment/parse-requirement.js';
import type { Distribution, PythonEnvironment } from '../../../src/environment/types.js';
import type { DistributionSpec } from './write-environment.js';

/** An in-memory Distribution, as read-distributions would build it from the same spec. */
export function makeDistribution(
  spec: DistributionSpec,
  sitePackages = '/venv/lib/python3.11/site-packages',
): Distribution {
  return {
    name: spec.name,
    key: normalizeName(spec.name),
    version: spec.version,
    installer: spec.installer ?? 'pip',
    source: 'index',
    requirements: (spec.requires ?? []).map(parseRequirement),
    invalidRequirements: [],
    requiresPython: spec.requiresPython ?? null,
    providesExtra: (spec.providesExtra ?? []).map(normalizeName),
    sitePackages,
    metadataPath: `${sitePackages}/${spec.name}-${spec.version}.dist-info`,
    files: (spec.files ?? []).map((file) =>
      typeof file === 'string' ? { path: file, hash: `h-${spec.name}` } : file,
    ),
  };
}

/** A check context over in-memory distributions; everything else absent unless given. */
export function makeContext(
  specs: (DistributionSpec | Distribution)[],
  overrides: Partial<CheckContext> & { torchCuda?: string | null; buildMeta?: Record<string, string> } = {},
): CheckContext {
  const distributions = specs.map((spec) => ('key' in spec ? spec : makeDistribution(spec)));
  const { torchCuda, buildMeta, ...rest } = overrides;
  const environment: PythonEnvironment = {
    python: '/venv/bin/python',
    pythonVersion: '3.11.7',
    sitePackages: ['/venv/lib/python3.11/site-packages'],
    markers: {
      ...describeHostMarkers('3.11.7'),
      sys_platform: 'linux',
      platform_system: 'Linux',
      platform_machine: 'x86_64',
    },
    distributions,
    unreadable: [],
    modules: { buildMeta: buildMeta ?? {}, ...(torchCuda === undefined ? {} : { torchCuda }) },
  };
  const installed = indexDistributions(distributions);
  return {
    environment: rest.environment ?? environment,
    installed,
    edges: collectRequirementEdges(installed, environment.markers).edges,
    gpu: null,
    gpuRequired: false,
    gpuWaitedMs: null,
    model: null,
    tensorParallelSize: null,
    maxModelLen: null,
    port: null,
    disk: null,
    sharedMemory: null,
    previous: null,
    env: {},
    sharedObjects: null,
    torchExports: null,
    server: null,
    ...rest,
  };
}
