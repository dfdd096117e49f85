import { cudaMajor } from '../../environment/pep440.js';
import type { Distribution } from '../../environment/types.js';
import { defineCheck, type CheckContext, type Problem } from '../define-check.js';
import { formatInstall, formatUninstall } from '../install-command.js';

const NVIDIA_WHEEL = /^nvidia-(.+)-cu(\d+)$/;

/**
 * nvidia-*-cu12 beside nvidia-*-cu13: both write site-packages/nvidia/<lib>/lib, and torch loads whatever
 * is there through its RPATH (`undefined symbol: ncclMemFree` at import torch). The same library under
 * two majors is an error; different libraries under two majors are leftovers worth removing.
 */
export default defineCheck({
  id: 'nvidia-cuda-major-mix',
  severity: 'error',
  title: 'NVIDIA CUDA 12 and 13 wheels mixed',
  run: (context) => {
    const byMajor = new Map<string, Distribution[]>();
    const byLibrary = new Map<string, Set<string>>();
    for (const distribution of context.installed.values()) {
      const match = NVIDIA_WHEEL.exec(distribution.key);
      if (match === null) continue;
      const [, library = '', major = ''] = match;
      byMajor.set(major, [...(byMajor.get(major) ?? []), distribution]);
      byLibrary.set(library, (byLibrary.get(library) ?? new Set()).add(major));
    }
    if (byMajor.size < 2) return [];
    const keep = keptMajor(context, byMajor);
    const stale = [...byMajor].filter(([major]) => major !== keep).flatMap(([, list]) => list);
    const clashing = [...byLibrary].filter(([, majors]) => majors.size > 1).map(([library]) => library);
    const problems: Problem[] = [];
    const names = stale.map((d) => d.name).sort();
    // Uninstalling the stale wheel deletes files the kept one shares with it; put those back.
    const restore = (byMajor.get(keep) ?? [])
      .filter((d) => clashing.some((library) => d.key.startsWith(`nvidia-${library}-cu`)))
      .map((d) => `${d.name}==${d.version}`);
    problems.push({
      severity: clashing.length > 0 ? 'error' : 'warning',
      detail:
        `NVIDIA wheels for CUDA ${[...byMajor.keys()].sort().join(' and ')} are installed together` +
        (clashing.length > 0
          ? `; ${clashing.join(', ')} exist(s) for both, writing the same nvidia/<lib>/lib files, so torch may load the wrong one.`
          : '; the ones not matching torch are leftovers of an earlier install.') +
        ` Not for CUDA ${keep}: ${names.join(', ')}.`,
      fix: [
        formatUninstall(names, stale[0]),
        ...(restore.length > 0 ? [formatInstall(restore, stale[0], ['--force-reinstall', '--no-deps'])] : []),
      ].join(' && '),
      packages: names,
    });
    return problems;
  },
});

/** The CUDA major torch is built for; else the major with most wheels. */
function keptMajor(context: CheckContext, byMajor: Map<string, Distribution[]>): string {
  const torchCuda = context.environment.modules.torchCuda;
  const major = typeof torchCuda === 'string' ? cudaMajor(torchCuda) : null;
  if (major !== null && byMajor.has(String(major))) return String(major);
  return [...byMajor].sort((a, b) => b[1].length - a[1].length)[0]?.[0] ?? '';
}
