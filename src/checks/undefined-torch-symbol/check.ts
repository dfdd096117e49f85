import { normalizeName } from '../../environment/normalize-name.js';
import type { SharedObjectReading } from '../../environment/read-shared-objects.js';
import { defineCheck, type Problem } from '../define-check.js';
import { formatInstall } from '../install-command.js';

const NAMED_SYMBOLS = 3;

/**
 * An extension built against another torch needs c10/at/torch symbols this libtorch does not export:
 * `ImportError: …/_C.abi3.so: undefined symbol: _ZNK3c106SymInt6sym_neERKS0_` at import, before the load.
 */
export default defineCheck({
  id: 'undefined-torch-symbol',
  severity: 'error',
  title: 'Extension built for another torch',
  run: ({ sharedObjects, torchExports, installed }) => {
    if (sharedObjects === null || torchExports === null || torchExports.size === 0) return [];
    const torch = installed.get('torch');
    const exported = [...torchExports.values()];
    const problems: Problem[] = [];
    for (const reading of sharedObjects) {
      if (reading.facts === null || reading.distribution === torch?.name) continue;
      const missing = reading.facts.undefinedSymbols.filter((name) => !exported.some((set) => set.has(name)));
      if (missing.length === 0) continue;
      const from = expectedLibrary(reading, missing[0] ?? '');
      const distribution = installed.get(normalizeName(reading.distribution));
      problems.push({
        detail:
          `${reading.path} (${reading.distribution} ${reading.version}) needs ${missing.length} symbol(s) that torch ${torch?.version ?? ''} does not export, ` +
          `e.g. ${missing.slice(0, NAMED_SYMBOLS).join(', ')}${from === null ? '' : ` (expected from ${from})`}: ` +
          `import fails with "undefined symbol: ${missing[0]}".`,
        fix:
          `install the ${reading.distribution} build made for torch ${torch?.version ?? 'as installed'} ` +
          `(${formatInstall([`${reading.distribution}`], distribution, ['--force-reinstall', '--no-deps'])} from the index matching torch), ` +
          `or rebuild it against this torch: ${formatInstall([reading.distribution], distribution, ['--no-build-isolation', '--no-binary', reading.distribution])}`,
        packages: [reading.distribution, 'torch'],
      });
    }
    return problems;
  },
});

/** Which DT_NEEDED library should hold a symbol: libc10 for c10::, libtorch* for at:: and torch::. */
function expectedLibrary(reading: SharedObjectReading, symbol: string): string | null {
  const needed = reading.facts?.needed ?? [];
  const prefix = /^_ZN[KVrLO]*3c10/.test(symbol) ? 'libc10' : 'libtorch';
  return needed.find((library) => library.startsWith(prefix)) ?? null;
}
