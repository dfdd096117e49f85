import { normalizeName } from '../environment/normalize-name.js';
import { satisfiesSpecifier } from '../environment/pep440.js';
import type { CheckContext, Problem } from './define-check.js';
import { formatInstall } from './install-command.js';
import type { RequirementEdge } from './requirement-edges.js';

/**
 * pip check's two findings, in pip's words: a requirement that is not installed, and one installed at a
 * version outside its specifier (pre-releases accepted, local labels per PEP 440).
 */
export function findUnmetRequirements(context: CheckContext, edges: readonly RequirementEdge[]): Problem[] {
  const problems: Problem[] = [];
  const unreadable = unreadableKeys(context);
  for (const edge of edges) {
    const { dependent, requirement, extra, requestedBy } = edge;
    const target = context.installed.get(requirement.key);
    // Most edges are met: the words are built only for one that is not.
    if (
      target !== undefined &&
      (requirement.specifier === '' || satisfiesSpecifier(target.version, requirement.specifier) !== false)
    )
      continue;
    const wanted = `${requirement.name}${requirement.extras.length ? `[${requirement.extras.join(',')}]` : ''}`;
    const spec = `${wanted}${requirement.specifier}`;
    const via =
      extra === '' ? '' : ` (for its extra [${extra}], which ${requestedBy ?? 'a dependent'} asks for)`;
    // Its metadata could not be read (metadata-unreadable says so): present, at a version no one knows.
    if (target === undefined && unreadable.has(requirement.key)) continue;
    if (target === undefined) {
      problems.push({
        title: 'Required package not installed',
        detail: `${dependent.name} ${dependent.version} requires ${spec}${via}, which is not installed.`,
        fix: formatInstall([requirement.url === null ? spec : `${wanted} @ ${requirement.url}`], dependent),
        packages: [dependent.name, requirement.name],
      });
      continue;
    }
    const others = context.edges
      .filter((other) => other.requirement.key === target.key && other.dependent !== dependent)
      .filter((other) => other.requirement.specifier !== '')
      .map((other) => `${other.dependent.name} ${other.dependent.version} (${other.requirement.specifier})`);
    problems.push({
      detail:
        `${dependent.name} ${dependent.version} has requirement ${spec}${via}, but you have ${target.name} ${target.version}.` +
        (others.length > 0 ? ` Also required by: ${[...new Set(others)].join(', ')}.` : ''),
      fix: formatInstall([spec], target),
      packages: [dependent.name, target.name],
    });
  }
  return problems;
}

/** The distribution names of the .dist-info and .egg-info folders whose metadata could not be read. */
function unreadableKeys(context: CheckContext): Set<string> {
  const keys = new Set<string>();
  for (const { path } of context.environment.unreadable) {
    const folder = /([^/]+)\.(?:dist|egg)-info(?:\/|$)/.exec(path)?.[1];
    const name = folder?.split('-')[0];
    if (name !== undefined && name !== '') keys.add(normalizeName(name));
  }
  return keys;
}
