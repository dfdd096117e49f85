import { cudaMajor, cudaVariantOf, publicVersion } from '../../environment/pep440.js';
import type { Distribution } from '../../environment/types.js';
import { defineCheck, type CheckContext, type Problem } from '../define-check.js';
import { expectedWithTorch, inSeries } from '../families.js';
import { formatInstall } from '../install-command.js';

/**
 * `==2.10.0` accepts every `+cuXXX` build, so pip check cannot see a torchvision, vLLM or jit-cache built
 * for another CUDA than torch. A different major fails at import (torchvision's _check_cuda_version,
 * libcudart.so.13 missing for vllm._C); a different minor usually runs.
 */
export default defineCheck({
  id: 'cuda-variant-mismatch',
  severity: 'error',
  title: 'Packages built for different CUDA versions',
  run: (context) => {
    const reference = torchCuda(context);
    if (reference === null) return [];
    const problems: Problem[] = [];
    for (const distribution of context.installed.values()) {
      if (distribution.key === 'torch') continue;
      const variant = cudaVariantOf(distribution.version);
      if (variant === null || variant.label === reference.label) continue;
      const sameMajor = variant.cuda !== null && cudaMajor(variant.cuda) === cudaMajor(reference.cuda);
      if (sameMajor && variant.cuda === reference.cuda) continue;
      const label = reference.label;
      problems.push({
        severity: sameMajor ? 'warning' : 'error',
        detail:
          `${distribution.name} ${distribution.version} is built for ${describe(variant.cuda, variant.label)}, ` +
          `but torch ${reference.version} is built for ${describe(reference.cuda, label)}` +
          (sameMajor ? '; the same CUDA major usually works.' : '; it will fail to load against this torch.'),
        fix: fixFor(distribution, label, context),
        packages: [distribution.name, 'torch'],
      });
    }
    return problems;
  },
});

interface Reference {
  version: string;
  cuda: string | null;
  label: string;
}

/** torch/version.py's cuda is what the binary was built with; the local label is the fallback. */
function torchCuda(context: CheckContext): Reference | null {
  const torch = context.installed.get('torch');
  if (torch === undefined) return null;
  const fromFile = context.environment.modules.torchCuda;
  if (typeof fromFile === 'string')
    return { version: torch.version, cuda: fromFile, label: `cu${fromFile.replace('.', '')}` };
  const variant = cudaVariantOf(torch.version);
  if (fromFile === null) return { version: torch.version, cuda: null, label: variant?.label ?? 'cpu' };
  return variant === null ? null : { version: torch.version, cuda: variant.cuda, label: variant.label };
}

function describe(cuda: string | null, label: string): string {
  return cuda === null ? label.toUpperCase() : `CUDA ${cuda}`;
}

// Where the +cuXXX builds of each package are published.
const INDEXES: Record<string, (label: string) => string> = {
  torchvision: (label) => `https://download.pytorch.org/whl/${label}`,
  torchaudio: (label) => `https://download.pytorch.org/whl/${label}`,
  'flashinfer-jit-cache': (label) => `https://flashinfer.ai/whl/${label}`,
};

function fixFor(distribution: Distribution, label: string, context: CheckContext): string {
  const index = INDEXES[distribution.key];
  if (label.startsWith('cu') && index !== undefined) {
    // A torchvision that is also the wrong release gets the one that pairs with torch, in the same command.
    const torch = context.installed.get('torch');
    const expected = torch === undefined ? null : expectedWithTorch(distribution.key, torch.version);
    const spec =
      expected !== null && !inSeries(distribution.version, expected)
        ? `${distribution.name}==${expected}.*`
        : `${distribution.name}==${publicVersion(distribution.version)}`;
    return formatInstall([spec], distribution, [
      '--force-reinstall',
      '--no-deps',
      '--index-url',
      index(label),
    ]);
  }
  return `reinstall the ${label} build of ${distribution.name} ${publicVersion(distribution.version)}, or a torch built for the CUDA the rest expects`;
}
