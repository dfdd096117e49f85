import { satisfiesSpecifier } from '../../environment/pep440.js';
import { defineCheck, type Problem } from '../define-check.js';

/** Requires-Python of installed distributions against the interpreter (uv pip check does this; pip does not). */
export default defineCheck({
  id: 'requires-python',
  severity: 'error',
  title: 'Installed for another Python',
  run: ({ environment, installed }) => {
    const version = environment.pythonVersion;
    if (version === null) return [];
    // With only X.Y known (read from a folder name), fail only when no X.Y.z could satisfy it.
    const candidates = version.split('.').length >= 3 ? [version] : [`${version}.0`, `${version}.99`];
    const problems: Problem[] = [];
    for (const distribution of installed.values()) {
      const spec = distribution.requiresPython;
      if (spec === null || spec.trim() === '') continue;
      if (candidates.some((candidate) => satisfiesSpecifier(candidate, spec) !== false)) continue;
      problems.push({
        detail: `${distribution.name} ${distribution.version} requires Python ${spec}, but this environment runs Python ${version}.`,
        fix: `install a ${distribution.name} release built for Python ${version}, or use an interpreter matching ${spec}`,
        packages: [distribution.name],
      });
    }
    return problems;
  },
});
