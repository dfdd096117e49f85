import { satisfiesSpecifier } from '../../environment/pep440.js';
import { defineCheck, type CheckContext } from '../define-check.js';
import { findFamilyMismatches } from '../families.js';
import { formatInstall } from '../install-command.js';

// When each mismatch bites, from python-env-facts §3.5.
const CONSEQUENCE: Record<string, string> = {
  torchvision:
    'import torchvision (which transformers does while loading the model) fails on operator or CUDA mismatches',
  torchaudio: 'import torchaudio fails with undefined symbols from a torch it was not built against',
  triton:
    'torch.compile during warm-up, after the weights are loaded, fails (cannot import name triton_key / TritonMissing)',
};

/**
 * torch with torchvision, torchaudio and triton per the published compatibility tables. A pair whose own
 * Requires-Dist already fails is left to requirement-unmet, so one mistake is reported once.
 */
export default defineCheck({
  id: 'torch-family-mismatch',
  severity: 'error',
  title: 'torch companion built for another torch',
  run: (context) => {
    const torch = context.installed.get('torch');
    if (torch === undefined) return [];
    const versions = new Map([...context.installed].map(([key, d]) => [key, d.version]));
    return findFamilyMismatches('torch', versions)
      .filter((mismatch) => !alreadyReported(context, mismatch.member))
      .map((mismatch) => {
        const member = context.installed.get(mismatch.member);
        return {
          detail:
            `${mismatch.member} ${mismatch.actual} is installed with torch ${torch.version}, which pairs with ` +
            `${mismatch.member} ${mismatch.expected}.x. ${CONSEQUENCE[mismatch.member] ?? ''}.`,
          fix: formatInstall([`${mismatch.member}==${mismatch.expected}.*`], member),
          packages: [mismatch.member, torch.name],
        };
      });
  },
});

function alreadyReported(context: CheckContext, member: string): boolean {
  const torch = context.installed.get('torch');
  if (torch === undefined) return false;
  const edges = context.edges.filter((e) => e.requirement.key === 'torch' || e.dependent.key === 'torch');
  return edges.some(
    (edge) =>
      (edge.dependent.key === member &&
        satisfiesSpecifier(torch.version, edge.requirement.specifier) === false) ||
      (edge.dependent.key === 'torch' && edge.requirement.key === member),
  );
}
