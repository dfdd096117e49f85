import { evaluateMarker, type MarkerEnvironment } from '../environment/evaluate-marker.js';
import type { Requirement } from '../environment/parse-requirement.js';
import type { Distribution } from '../environment/types.js';

/** A requirement of an installed distribution that applies in this environment. */
export interface RequirementEdge {
  dependent: Distribution;
  requirement: Requirement;
  /** '' for a base requirement (what pip check sees); otherwise the extra that brings it in. */
  extra: string;
  /** For an extra's requirement: the first installed dependent that asked for the extra ("torch 2.14.0"). */
  requestedBy: string | null;
}

export interface RequirementGraph {
  edges: RequirementEdge[];
  /** Extras that installed dependents ask for, per normalized name. */
  requestedExtras: Map<string, Set<string>>;
}

/**
 * Follows Requires-Dist from every installed distribution. Base requirements use extra == '' as pip
 * does; an extra is evaluated only when an installed dependent asks for it (`torch[cuda]`), repeated
 * until no new extra is asked for. Requirements whose marker cannot be evaluated are left out.
 */
export function collectRequirementEdges(
  installed: ReadonlyMap<string, Distribution>,
  markers: MarkerEnvironment,
): RequirementGraph {
  const edges: RequirementEdge[] = [];
  const requestedExtras = new Map<string, Set<string>>();
  const queue: [Distribution, string, string | null][] = [...installed.values()].map((d) => [d, '', null]);
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    const [dependent, extra, requestedBy] = item;
    for (const requirement of dependent.requirements) {
      if (!applies(requirement, markers, extra)) continue;
      edges.push({ dependent, requirement, extra, requestedBy });
      const target = installed.get(requirement.key);
      if (target === undefined) continue;
      for (const wanted of requirement.extras) {
        const asked = requestedExtras.get(target.key) ?? new Set<string>();
        requestedExtras.set(target.key, asked);
        if (asked.has(wanted)) continue;
        asked.add(wanted);
        queue.push([target, wanted, `${dependent.name} ${dependent.version}`]);
      }
    }
  }
  return { edges, requestedExtras };
}

// For an extra, only what the extra adds: requirements that already apply to the base are counted once.
function applies(requirement: Requirement, markers: MarkerEnvironment, extra: string): boolean {
  if (requirement.marker === null) return extra === '';
  const here = evaluateMarker(requirement.marker, markers, extra) === true;
  if (extra === '' || !here) return here;
  return evaluateMarker(requirement.marker, markers, '') !== true;
}
