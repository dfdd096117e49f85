import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Distribution, ModuleVersions } from './types.js';

// The files whose version strings the runtime itself compares (flashinfer/jit/env.py reads these).
const BUILD_META: Record<string, string> = {
  'flashinfer-python': 'flashinfer/_build_meta.py',
  'flashinfer-cubin': 'flashinfer_cubin/_build_meta.py',
  'flashinfer-jit-cache': 'flashinfer_jit_cache/_build_meta.py',
};

/** Reads torch/version.py's `cuda` and the flashinfer packages' `_build_meta.py` versions, where installed. */
export function readModuleVersions(installed: ReadonlyMap<string, Distribution>): ModuleVersions {
  const modules: ModuleVersions = { buildMeta: {} };
  const torch = installed.get('torch');
  if (torch !== undefined) {
    const text = readOptional(join(torch.sitePackages, 'torch', 'version.py'));
    if (text !== null) modules.torchCuda = parseTorchCuda(text);
  }
  for (const [key, file] of Object.entries(BUILD_META)) {
    const distribution = installed.get(key);
    if (distribution === undefined) continue;
    const text = readOptional(join(distribution.sitePackages, file));
    const version = text === null ? null : /^__version__\s*=\s*['"]([^'"]+)['"]/m.exec(text)?.[1];
    if (version !== undefined && version !== null) modules.buildMeta[key] = version;
  }
  return modules;
}

/** `cuda: Optional[str] = '12.8'` or `cuda = '11.8'` → the string; `None` → null. */
export function parseTorchCuda(text: string): string | null {
  const match = /^cuda(?:\s*:\s*[^=\n]+)?\s*=\s*(None|'([^']*)'|"([^"]*)")/m.exec(text);
  if (match === null || match[1] === 'None') return null;
  return match[2] ?? match[3] ?? null;
}

function readOptional(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
