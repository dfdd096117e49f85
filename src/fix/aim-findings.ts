import type { Finding } from '../checks/define-check.js';
import type { FixPlace } from './fix-action.js';
import {
  aimInstallText,
  describeEnvironment,
  type CrashedEnvironment,
  type EnvironmentFacts,
} from './target-fix.js';

/** The environment `check`, `snapshot` or `diff` read: its interpreter, folders and most common INSTALLER. */
export interface CheckedEnvironment {
  python: string | null;
  sitePackages: readonly string[];
  installer: string | null;
}

const SITE = /^(?<prefix>\/.*?)\/lib(?:64)?\/(?<python>python\d+\.\d+t?)\/(?:site|dist)-packages\/?$/;

/** The environment as the fix layer knows it, from its site-packages folder (or its interpreter), or null. */
export function locateChecked(checked: CheckedEnvironment): CrashedEnvironment | null {
  for (const sitePackages of checked.sitePackages) {
    const match = SITE.exec(sitePackages);
    if (match?.groups === undefined) continue;
    const { prefix = '', python = 'python3' } = match.groups;
    const system = prefix === '/usr' || prefix === '/usr/local';
    return {
      prefix,
      sitePackages,
      python: checked.python ?? (system ? `/usr/bin/${python}` : `${prefix}/bin/python`),
      isVenv: !system,
    };
  }
  return null;
}

/**
 * The findings' installs aimed at the environment checked and the place it is on (`--ssh`), as the
 * diagnosis's are: the same interpreter, uv or pip, index and quoting, whichever command found them.
 */
export function aimFindings(
  findings: readonly Finding[],
  checked: CheckedEnvironment,
  place: FixPlace,
  readFacts?: (environment: CrashedEnvironment) => EnvironmentFacts,
): Finding[] {
  const located = locateChecked(checked);
  if (located === null) return [...findings];
  const facts = readFacts?.(located) ?? { installer: null, cudaTag: null };
  const environment = describeEnvironment(located, {
    ...facts,
    installer: facts.installer ?? checked.installer,
  });
  return findings.map((finding) => {
    const aimed = finding.fix === null ? null : aimInstallText(finding.fix, environment, place);
    return aimed === null ? finding : { ...finding, fix: aimed };
  });
}

/** The INSTALLER most distributions name: uv, pip, conda; null when none says. */
export function mostCommonInstaller(distributions: readonly { installer: string | null }[]): string | null {
  const counts = new Map<string, number>();
  for (const { installer } of distributions) {
    if (installer !== null && installer !== '') counts.set(installer, (counts.get(installer) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [installer, count] of counts)
    if (best === null || count > (counts.get(best) ?? 0)) best = installer;
  return best;
}
