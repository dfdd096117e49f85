import type { Problem } from '../define-check.js';
import { FAMILIES, findFamilyMismatches, type FamilyName } from '../families.js';
import { formatInstall } from '../install-command.js';

/**
 * A lock-step family where some members changed version and others stayed behind, leaving the family
 * inconsistent: the incident's `pip install -U vllm` moved flashinfer-python to 0.6.4 and left
 * flashinfer-cubin at 0.6.3. Takes name → version maps (normalized names) before and after. Pure.
 */
export function findPartialMoves(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): Problem[] {
  const problems: Problem[] = [];
  for (const family of Object.keys(FAMILIES) as FamilyName[]) {
    const members = FAMILIES[family].filter((name) => before.has(name) && after.has(name));
    const moved = members.filter((name) => before.get(name) !== after.get(name));
    const stayed = members.filter((name) => before.get(name) === after.get(name));
    if (moved.length === 0 || stayed.length === 0) continue;
    const mismatches = findFamilyMismatches(family, after);
    if (mismatches.length === 0) continue;
    const movedText = moved
      .map((name) => `${name} ${before.get(name) ?? ''} → ${after.get(name) ?? ''}`)
      .join(', ');
    const behind = mismatches.map(
      (m) => `${m.member} ${m.actual} (needs ${m.expected}${family === 'torch' ? '.x' : ''})`,
    );
    const specs = mismatches.map((m) => `${m.member}==${m.expected}${family === 'torch' ? '.*' : ''}`);
    problems.push({
      detail: `The ${family} family moved only in part: ${movedText}; now out of step: ${behind.join(', ')}.`,
      fix: formatInstall(specs),
      packages: [...new Set([...moved, ...mismatches.map((m) => m.member)])],
    });
  }
  return problems;
}
