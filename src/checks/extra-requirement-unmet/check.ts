import { defineCheck, type CheckContext, type Problem } from '../define-check.js';
import { findUnmetRequirements } from '../find-unmet-requirements.js';

/**
 * Requirements brought in by extras that installed dependents ask for (torch's cuda-toolkit[cublas,…],
 * flashinfer-python[cu13]); pip check never evaluates `extra == "…"` markers (pypa/pip#4086).
 */
export default defineCheck({
  id: 'extra-requirement-unmet',
  severity: 'error',
  title: "Extra's requirement not met",
  run: (context) => {
    const problems = findUnmetRequirements(
      context,
      context.edges.filter((edge) => edge.extra !== ''),
    );
    return [...problems, ...findUnknownExtras(context)];
  },
});

function findUnknownExtras(context: CheckContext): Problem[] {
  const problems: Problem[] = [];
  for (const { dependent, requirement } of context.edges) {
    const target = context.installed.get(requirement.key);
    // Old metadata may list no extras at all; only a declared list can prove an extra missing.
    if (requirement.extras.length === 0 || target === undefined || target.providesExtra.length === 0)
      continue;
    for (const extra of requirement.extras.filter((wanted) => !target.providesExtra.includes(wanted))) {
      problems.push({
        severity: 'warning',
        title: 'Extra not provided',
        detail: `${dependent.name} ${dependent.version} asks for ${target.name}[${extra}], but ${target.name} ${target.version} declares no extra "${extra}" (it has: ${target.providesExtra.join(', ')}).`,
        fix: null,
        packages: [dependent.name, target.name],
      });
    }
  }
  return problems;
}
