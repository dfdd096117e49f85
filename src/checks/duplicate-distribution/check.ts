import { describeOwnerQuery } from '../../environment/system-packages.js';
import type { Distribution } from '../../environment/types.js';
import { defineCheck, type Problem } from '../define-check.js';
import { formatInstall } from '../install-command.js';

/**
 * Two metadata folders for one name. In one folder it is a broken install (pip silently reads one of
 * them); across folders the first on sys.path shadows the other.
 */
export default defineCheck({
  id: 'duplicate-distribution',
  severity: 'error',
  title: 'Two copies of one distribution',
  run: ({ environment }) => {
    const byKey = new Map<string, typeof environment.distributions>();
    for (const distribution of environment.distributions) {
      byKey.set(distribution.key, [...(byKey.get(distribution.key) ?? []), distribution]);
    }
    const problems: Problem[] = [];
    for (const copies of byKey.values()) {
      if (copies.length < 2) continue;
      const [first] = copies;
      if (first === undefined) continue;
      const system = copies.filter((copy) => copy.managedBy !== undefined);
      const sameFolder = copies.some((copy) => copy !== first && copy.sitePackages === first.sitePackages);
      // One system package often ships a .dist-info and an .egg-info (Debian's python3-cryptography):
      // its package manager keeps them in step, and they are not ours to delete.
      if (system.length === copies.length && sameFolder) continue;
      if (system.length > 0) {
        problems.push(besideSystemPackage(copies, system));
        continue;
      }
      const listed = copies.map((copy) => `${copy.version} (${copy.metadataPath})`).join(', ');
      problems.push({
        severity: sameFolder ? 'error' : 'warning',
        detail: sameFolder
          ? `${first.name} is installed more than once in ${first.sitePackages}: ${listed}. Which one Python imports is undefined.`
          : `${first.name} is installed in more than one folder on the search path: ${listed}. ${first.version} from ${first.sitePackages} shadows the rest.`,
        fix: sameFolder
          ? `remove the stale folders among ${copies.map((copy) => copy.metadataPath).join(' ')}, then ${formatInstall([`${first.name}==${first.version}`], first, ['--force-reinstall', '--no-deps'])}`
          : `uninstall ${first.name} from the folders it should not be in (${copies
              .slice(1)
              .map((copy) => copy.sitePackages)
              .join(', ')})`,
        packages: [first.name],
      });
    }
    return problems;
  },
});

/**
 * pip or uv put a second copy beside one the system's package manager owns: the fix removes only the
 * copies that manager does not own, and says how to find the package that owns the rest.
 */
function besideSystemPackage(copies: Distribution[], system: Distribution[]): Problem {
  const [first] = copies as [Distribution];
  const owned = system[0] ?? first;
  const others = copies.filter((copy) => copy.managedBy === undefined);
  const listed = copies
    .map(
      (copy) =>
        `${copy.version} (${copy.metadataPath}${copy.managedBy === undefined ? '' : `, owned by ${copy.managedBy}`})`,
    )
    .join(', ');
  const query = describeOwnerQuery(owned.managedBy ?? 'dpkg', owned.metadataPath);
  const folders = [...new Set(others.map((copy) => copy.sitePackages))].join(', ');
  return {
    severity: 'warning',
    detail: `${first.name} is installed by ${owned.managedBy ?? 'the system'} and again by ${others.map((copy) => copy.installer ?? 'pip').join(', ')}: ${listed}. ${first.version} from ${first.sitePackages} is the one Python imports.`,
    fix: `uninstall the copy in ${folders} (pip uninstall ${first.name} with the interpreter that installed it); leave ${system.map((copy) => copy.metadataPath).join(' ')} to ${owned.managedBy ?? 'the system'} (${query})`,
    packages: [first.name],
  };
}
