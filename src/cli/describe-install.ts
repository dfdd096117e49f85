import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from '../version.js';

/** 'binary' in the standalone executable (scripts/build-binary.mjs defines it); absent elsewhere. */
declare const VIGIL_BUILD: string | undefined;

export type InstallKind = 'binary' | 'wheel' | 'npm' | 'source';

/**
 * How this vigil came to be here: the standalone build says so itself, the wheel's `vigil` command tells the
 * binary it starts (VIGIL_INSTALL=wheel), and an npm install lives under a node_modules folder.
 */
export function findInstall(env: NodeJS.ProcessEnv, moduleUrl: string): InstallKind {
  if (isStandalone()) return env.VIGIL_INSTALL === 'wheel' ? 'wheel' : 'binary';
  return moduleUrl.startsWith('file:') && fileURLToPath(moduleUrl).includes(`${sep}node_modules${sep}`)
    ? 'npm'
    : 'source';
}

export function isStandalone(): boolean {
  return typeof VIGIL_BUILD === 'string' && VIGIL_BUILD === 'binary';
}

/** `vigil --version`: the version, then how it was installed and what runs it. */
export function describeVersion(
  kind: InstallKind,
  runtime: { node: string; platform: string; arch: string; execPath: string },
): string {
  const target = `${runtime.platform}-${runtime.arch}`;
  const how = {
    binary: `standalone binary (${target}, Node.js ${runtime.node} built in): ${runtime.execPath}`,
    wheel: `Python wheel vigil-llm (standalone binary ${target}): ${runtime.execPath}`,
    npm: `npm package vigil-llm (Node.js ${runtime.node})`,
    source: `source checkout (Node.js ${runtime.node})`,
  }[kind];
  return `vigil ${VERSION}\ninstalled as ${how}`;
}
