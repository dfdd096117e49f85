import { posix } from 'node:path';
import type { Distribution } from '../../environment/types.js';
import { defineCheck, type Problem } from '../define-check.js';

/**
 * Two distributions whose RECORDs list the same file with different contents: the last writer won, so one
 * of them is broken (nvidia-nccl-cu11 and -cu12 both write nvidia/nccl/lib/libnccl.so.2; sgl-kernel and
 * sglang-kernel both write sgl_kernel/). Identical files (same hash) are harmless namespace stubs.
 */
export default defineCheck({
  id: 'file-overlap',
  severity: 'error',
  title: 'Two distributions write the same file',
  run: ({ environment }) => {
    const owners = new Map<string, { distribution: Distribution; hash: string }>();
    const clashes = new Map<string, { first: Distribution; second: Distribution; files: string[] }>();
    for (const distribution of environment.distributions) {
      for (const entry of distribution.files) {
        if (entry.path.endsWith('.pyc') || entry.path.includes('.dist-info/')) continue;
        const path = resolveRecordPath(distribution.sitePackages, entry.path);
        const owner = owners.get(path);
        if (owner === undefined) {
          owners.set(path, { distribution, hash: entry.hash });
          continue;
        }
        // Same name twice is duplicate-distribution's finding; equal hashes mean equal contents.
        if (owner.distribution.key === distribution.key || (owner.hash !== '' && owner.hash === entry.hash))
          continue;
        const pair = `${owner.distribution.metadataPath}\0${distribution.metadataPath}`;
        const clash = clashes.get(pair) ?? { first: owner.distribution, second: distribution, files: [] };
        clash.files.push(entry.path);
        clashes.set(pair, clash);
      }
    }
    return [...clashes.values()].map(({ first, second, files }): Problem => {
      const insidePackages = files.some((file) => !file.startsWith('..'));
      const shown = files.slice(0, 3).join(', ') + (files.length > 3 ? `, and ${files.length - 3} more` : '');
      return {
        // Clashing console scripts in bin/ are a nuisance; clashing modules and libraries break imports.
        severity: insidePackages ? 'error' : 'warning',
        detail: `${first.name} ${first.version} and ${second.name} ${second.version} both install ${files.length} file(s) with different contents: ${shown}. Whichever was installed last overwrote the other.`,
        fix: overlapFix(first, second),
        packages: [first.name, second.name],
      };
    });
  },
});

/** Never a pip uninstall of what a system package manager owns: that one is reinstalled by it instead. */
function overlapFix(first: Distribution, second: Distribution): string {
  const system = [first, second].filter((distribution) => distribution.managedBy !== undefined);
  const other = [first, second].find((distribution) => distribution.managedBy === undefined);
  if (system.length === 0) {
    return `uninstall the one that should not be there (pip uninstall -y ${first.name} or ${second.name}), then reinstall the other with --force-reinstall --no-deps`;
  }
  const owned = system
    .map((distribution) => `${distribution.name} (${distribution.managedBy ?? ''})`)
    .join(' and ');
  return other === undefined
    ? `both are system packages: reinstall ${owned} with the system's package manager`
    : `uninstall ${other.name} (pip uninstall -y ${other.name}), then reinstall ${owned} with the system's package manager; never delete its files by hand`;
}

function resolveRecordPath(sitePackages: string, path: string): string {
  const joined = path.startsWith('/') ? path : `${sitePackages}/${path}`;
  return joined.includes('..') || joined.includes('./') ? posix.normalize(joined) : joined;
}
