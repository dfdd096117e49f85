import { posix } from 'node:path';
import { listFileRuns } from '../../environment/record-rows.js';
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
    const shared = findSharedFolders(environment.distributions);
    for (const distribution of environment.distributions) {
      const inShared = shared === null ? null : shared.get(distribution);
      if (inShared === undefined) continue;
      for (const entry of distribution.files) {
        if (skipped(entry.path) || (inShared !== null && !inShared(entry.path))) continue;
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

/** Compiled files are rebuilt from their sources, and each distribution's own .dist-info is its own. */
function skipped(path: string): boolean {
  return path.endsWith('.pyc') || path.includes('.dist-info/');
}

/**
 * Two RECORD rows name the same file only if they are under the same top folder of the same site folder
 * (torch/…, nvidia/…), and most top folders belong to one distribution. Finding which are shared first, in
 * a pass that keys one string per folder instead of one per file, spares the map of every path: in an
 * environment of 600 distributions and 60,000 files that map was most of this check's time and memory.
 * The pass reads one path per run of rows under one top folder (record-rows.ts), so the rows of a
 * distribution that shares no folder are never cut out of its RECORD.
 * Null when the site folders themselves are unusual (nested, or holding `.`/`..` parts): then every row
 * is compared, as the comparison by whole path needs no such assumption.
 */
function findSharedFolders(
  distributions: readonly Distribution[],
): Map<Distribution, (path: string) => boolean> | null {
  const sites = [...new Set(distributions.map((distribution) => distribution.sitePackages))];
  const plain = (site: string) => !site.includes('..') && !site.includes('./') && !site.endsWith('.');
  const nested = (site: string) => sites.some((other) => other !== site && site.startsWith(`${other}/`));
  if (!sites.every(plain) || sites.some(nested)) return null;
  const users = new Map<string, Distribution | null>();
  const runs = new Map(distributions.map((distribution) => [distribution, listFileRuns(distribution)]));
  for (const [distribution, paths] of runs) {
    const folderOf = walkFolders(distribution.sitePackages, sites);
    let last = '';
    for (const path of paths) {
      const folder = folderOf(path);
      if (folder === last) continue;
      last = folder;
      const user = users.get(folder);
      if (user === undefined) users.set(folder, distribution);
      else if (user !== distribution) users.set(folder, null);
    }
  }
  // Only the distributions with a shared folder are walked again, and only their rows in one are compared.
  const readers = new Map<Distribution, (path: string) => boolean>();
  for (const [folder, user] of users) {
    if (user !== null) users.delete(folder);
  }
  if (users.size === 0) return readers;
  for (const [distribution, paths] of runs) {
    const folderOf = walkFolders(distribution.sitePackages, sites);
    if (!paths.some((path) => users.has(folderOf(path)))) continue;
    const inShared = walkFolders(distribution.sitePackages, sites);
    readers.set(distribution, (path) => users.has(inShared(path)));
  }
  return readers;
}

/**
 * The folder key of each row of one distribution's RECORD, asked row by row: consecutive rows mostly share
 * a top folder, which is then recognised with a startsWith and not built again.
 */
function walkFolders(sitePackages: string, sites: readonly string[]): (path: string) => string {
  let top = '';
  let folder = '';
  return (path) => {
    if (path.startsWith('/') || path.includes('..') || path.includes('./')) {
      // A row that leaves its folder (../../bin/x) or is absolute: its folder is the one it lands in.
      const resolved = resolveRecordPath(sitePackages, path);
      const site = sites.find((candidate) => resolved.startsWith(`${candidate}/`));
      return site === undefined ? `\0${resolved}` : `${site}\0${topFolder(resolved.slice(site.length + 1))}`;
    }
    if (top === '' || !path.startsWith(top) || path.charCodeAt(top.length) !== 47) {
      top = topFolder(path);
      folder = `${sitePackages}\0${top}`;
    }
    return folder;
  };
}

/** `torch` of `torch/lib/libc10.so`; a file at the top is its own folder. */
function topFolder(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? path : path.slice(0, slash);
}

function resolveRecordPath(sitePackages: string, path: string): string {
  const joined = path.startsWith('/') ? path : `${sitePackages}/${path}`;
  return joined.includes('..') || joined.includes('./') ? posix.normalize(joined) : joined;
}
