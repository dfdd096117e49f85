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
      const sameFolder = copies.some((copy) => copy !== first && copy.sitePackages === first.sitePackages);
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
