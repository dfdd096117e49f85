import type { Finding, Severity } from '../../checks/index.js';

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Errors first, then warnings, then notes; check order within each. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
}

export function countFindings(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return counts;
}

/** "1 error, 2 warnings, 1 note" */
export function describeCounts(findings: readonly Finding[]): string {
  const counts = countFindings(findings);
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [plural(counts.error, 'error'), plural(counts.warning, 'warning'), plural(counts.info, 'note')].join(
    ', ',
  );
}
