import {
  compareVersions,
  cudaVariantOf,
  publicVersion,
  samePublicVersion,
} from '../../environment/pep440.js';
import type { Distribution } from '../../environment/types.js';
import { defineCheck, type CheckContext, type Problem } from '../define-check.js';
import { formatInstall, formatUninstall } from '../install-command.js';

// flashinfer-cubin left PyPI after 0.6.13; later wheels and every jit-cache wheel come from flashinfer.ai.
const LAST_CUBIN_ON_PYPI = '0.6.13';

/**
 * flashinfer/jit/env.py compares, at `import flashinfer`, flashinfer-cubin's version with flashinfer's as
 * strings and flashinfer-jit-cache's with startswith. No metadata ties them, so pip check stays green.
 */
export default defineCheck({
  id: 'flashinfer-version-mismatch',
  severity: 'error',
  title: 'FlashInfer packages at different versions',
  run: (context) => {
    const flashinfer = context.installed.get('flashinfer-python');
    if (flashinfer === undefined) return [];
    const meta = context.environment.modules.buildMeta;
    const fiVersion = meta['flashinfer-python'] ?? flashinfer.version;
    const target = pinnedVersion(context) ?? publicVersion(fiVersion);
    const bypass = (context.env.FLASHINFER_DISABLE_VERSION_CHECK ?? '') !== '';
    const problems: Problem[] = [];
    const cubin = context.installed.get('flashinfer-cubin');
    const cubinVersion = cubin === undefined ? null : (meta['flashinfer-cubin'] ?? cubin.version);
    if (cubin !== undefined && cubinVersion !== null && cubinVersion !== fiVersion) {
      const error = `RuntimeError: flashinfer-cubin version (${cubinVersion}) does not match flashinfer version (${fiVersion}).`;
      problems.push({
        severity: bypass ? 'warning' : 'error',
        detail:
          `flashinfer-cubin ${cubinVersion} is installed beside flashinfer-python ${fiVersion}. ` +
          (bypass
            ? `FLASHINFER_DISABLE_VERSION_CHECK hides the check, so stale kernels load instead (illegal memory access, missing SM90 cubins).`
            : `Every worker dies at import flashinfer with: ${error}`) +
          ` Uninstalling flashinfer-cubin also works where flashinfer may download kernels (${formatUninstall(['flashinfer-cubin'], cubin)}).`,
        fix: formatInstall([`flashinfer-cubin==${target}`], cubin, cubinIndex(target)),
        packages: ['flashinfer-cubin', flashinfer.name],
      });
    }
    const jit = context.installed.get('flashinfer-jit-cache');
    const jitVersion = jit === undefined ? null : (meta['flashinfer-jit-cache'] ?? jit.version);
    if (
      jit !== undefined &&
      jitVersion !== null &&
      !(jitVersion.startsWith(fiVersion) && samePublicVersion(jitVersion, fiVersion))
    ) {
      const crashes = !jitVersion.startsWith(fiVersion);
      const cuda = cudaLabel(jit, context);
      problems.push({
        severity: bypass || !crashes ? 'warning' : 'error',
        detail:
          `flashinfer-jit-cache ${jitVersion} is installed beside flashinfer-python ${fiVersion}. ` +
          (crashes && !bypass
            ? `Every worker dies at import flashinfer with: RuntimeError: flashinfer-jit-cache version (${jitVersion}) does not match flashinfer version (${fiVersion}).`
            : `flashinfer's own check lets it pass, but its prebuilt kernels belong to another release.`),
        fix: formatInstall([`flashinfer-jit-cache==${target}+${cuda}`], jit, [
          '--extra-index-url',
          `https://flashinfer.ai/whl/${cuda}`,
        ]),
        packages: ['flashinfer-jit-cache', flashinfer.name],
      });
    }
    return problems;
  },
});

/** The flashinfer-python version an installed engine pins (vllm: flashinfer-python==0.6.4), if any. */
function pinnedVersion(context: CheckContext): string | null {
  for (const edge of context.edges) {
    const pin = /^==\s*([^,*\s]+)$/.exec(edge.requirement.specifier);
    if (edge.requirement.key === 'flashinfer-python' && pin?.[1] !== undefined) return publicVersion(pin[1]);
  }
  return null;
}

function cubinIndex(version: string): string[] {
  return compareVersions(version, LAST_CUBIN_ON_PYPI) > 0
    ? ['--extra-index-url', 'https://flashinfer.ai/whl']
    : [];
}

/** cu130 from the jit-cache's own label, else from torch's CUDA. */
function cudaLabel(jit: Distribution, context: CheckContext): string {
  const own = cudaVariantOf(jit.version);
  if (own !== null && own.cuda !== null) return own.label;
  const torchCuda = context.environment.modules.torchCuda;
  if (typeof torchCuda === 'string') return `cu${torchCuda.replace('.', '')}`;
  const torch = context.installed.get('torch');
  return (torch === undefined ? null : cudaVariantOf(torch.version)?.label) ?? 'cu130';
}
