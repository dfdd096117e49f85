import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CrashedEnvironment, EnvironmentFacts } from '../fix/target-fix.js';
import { parsePyvenvCfg } from './parse-pyvenv-cfg.js';
import { parseTorchCuda } from './read-module-versions.js';

/**
 * What the crashed environment's files say when it is on this machine (vigil diagnose runs on the server
 * more often than not): the installer that built it, from its distributions' INSTALLER files (or uv's
 * key in pyvenv.cfg), and torch's CUDA as a wheel tag. Unknown (null) when the folder is not here.
 * `root`: where another host's files were copied to (sources/remote-environment.ts), its paths under it.
 */
export function readEnvironmentFacts(environment: CrashedEnvironment, root = ''): EnvironmentFacts {
  const { prefix, sitePackages } = environment;
  return {
    installer: readInstaller(join(root, prefix), join(root, sitePackages)),
    cudaTag: readCudaTag(join(root, sitePackages)),
    conda: existsSync(join(root, prefix, 'conda-meta')),
    externallyManaged: !environment.isVenv && existsSync(join(root, markerOf(environment.python))),
  };
}

/**
 * PEP 668's marker of a system interpreter: it sits in its stdlib folder (/usr/lib/python3.12/EXTERNALLY-MANAGED).
 */
export function markerOf(python: string): string {
  const version = /python\d+\.\d+t?$/.exec(python)?.[0] ?? 'python3';
  return join('/usr/lib', version, 'EXTERNALLY-MANAGED');
}

function readInstaller(prefix: string, sitePackages: string): string | null {
  let names: string[];
  try {
    names = readdirSync(sitePackages).filter((name) => name.endsWith('.dist-info'));
  } catch {
    return null;
  }
  const counts = new Map<string, number>();
  for (const name of names) {
    const installer = readText(join(sitePackages, name, 'INSTALLER'))
      ?.trim()
      .toLowerCase();
    if (installer !== undefined && installer !== '') counts.set(installer, (counts.get(installer) ?? 0) + 1);
  }
  const [most] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (most !== undefined) return most[0];
  const cfg = readText(join(prefix, 'pyvenv.cfg'));
  return cfg !== null && parsePyvenvCfg(cfg).has('uv') ? 'uv' : null;
}

function readCudaTag(sitePackages: string): string | null {
  const text = readText(join(sitePackages, 'torch', 'version.py'));
  const cuda = text === null ? null : parseTorchCuda(text);
  const match = cuda === null ? null : /^(\d+)\.(\d+)/.exec(cuda);
  return match === null ? null : `cu${match[1]}${match[2]}`;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
