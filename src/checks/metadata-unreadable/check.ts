import { isVersion } from '../../environment/pep440.js';
import { describeOwnerQuery } from '../../environment/system-packages.js';
import { defineCheck, type Problem } from '../define-check.js';

/** Metadata pip cannot read either ("Error parsing dependencies of …", "Ignoring invalid distribution ~orch"). */
export default defineCheck({
  id: 'metadata-unreadable',
  severity: 'warning',
  title: 'Unreadable package metadata',
  run: ({ environment }) => {
    const problems: Problem[] = environment.unreadable.map(({ path, reason, access, managedBy }) =>
      access === true
        ? {
            // Vigil could not look: nothing there was checked, and the package may well be fine.
            title: 'Unreadable',
            severity: 'error',
            detail: `${path} ${reason}: nothing in it was checked.`,
            fix: `run vigil as a user that can read ${path} (the server's own user, or root), or fix its permissions`,
            packages: [],
          }
        : {
            detail: `${path}: ${reason}.`,
            // A folder a system package owns is never ours to delete: its package manager repairs it.
            fix:
              managedBy === undefined
                ? `remove ${path} if its package is gone, or reinstall that package with --force-reinstall`
                : `reinstall the system package that owns it (${describeOwnerQuery(managedBy, path)} names it)`,
            packages: [],
          },
    );
    for (const distribution of environment.distributions) {
      // pip refuses such a version ("Ignoring invalid distribution"), and no specifier can be checked against it.
      if (!isVersion(distribution.version)) {
        problems.push({
          detail: `${distribution.name} has the version ${JSON.stringify(distribution.version)}, which is not a PEP 440 version: pip treats it as invalid and no requirement on it can be checked.`,
          fix: `reinstall ${distribution.name} from a proper release`,
          packages: [distribution.name],
        });
      }
      if (distribution.invalidRequirements.length === 0) continue;
      problems.push({
        detail: `${distribution.name} ${distribution.version} has Requires-Dist entries that are not PEP 508: ${distribution.invalidRequirements.join('; ')}. pip check reports "Error parsing dependencies of ${distribution.name}".`,
        fix: null,
        packages: [distribution.name],
      });
    }
    return problems;
  },
});
