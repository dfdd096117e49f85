import type { Check, CheckContext, Finding, Problem } from './define-check.js';

/**
 * Runs each check and turns its problems into findings. A check that throws is reported under its own id
 * as a warning and the rest still run: one broken rule must not hide the others.
 */
export function runChecks(checks: readonly Check[], context: CheckContext): Finding[] {
  const findings: Finding[] = [];
  for (const check of checks) {
    let problems: Problem[];
    try {
      problems = check.run(context);
    } catch (error) {
      problems = [
        {
          severity: 'warning',
          title: `Check ${check.id} failed`,
          detail: `The check itself failed (${error instanceof Error ? error.message : String(error)}); this is a bug in vigil.`,
          fix: null,
          packages: [],
        },
      ];
    }
    // One by one: a spread of 150,000 problems (a METADATA with that many Requires-Dist) overflows the stack.
    for (const problem of problems) findings.push(toFinding(check, problem));
  }
  return findings;
}

export function toFinding(check: Check, problem: Problem): Finding {
  return {
    id: check.id,
    severity: problem.severity ?? check.severity,
    title: problem.title ?? check.title,
    detail: problem.detail,
    fix: problem.fix,
    packages: problem.packages,
  };
}
