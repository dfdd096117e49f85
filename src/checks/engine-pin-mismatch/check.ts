import { evaluateMarker } from '../../environment/evaluate-marker.js';
import { satisfiesSpecifier } from '../../environment/pep440.js';
import { defineCheck, type Problem } from '../define-check.js';
import { formatInstall } from '../install-command.js';

const ENGINES = ['vllm', 'sglang'];

/**
 * Pins of an installed engine that sit behind an extra nobody recorded asking for: sglang ≤ 0.5.1 put
 * torch, flashinfer and sgl-kernel pins in its [srt] extra, and `pip install "sglang[srt]"` leaves no trace
 * of the extra. When such a pinned package is installed at another version, the engine runs against it.
 */
export default defineCheck({
  id: 'engine-pin-mismatch',
  severity: 'warning',
  title: "Engine's pinned version not installed",
  run: (context) => {
    const problems: Problem[] = [];
    for (const key of ENGINES) {
      const engine = context.installed.get(key);
      if (engine === undefined) continue;
      const counted = new Set(context.edges.filter((e) => e.dependent === engine).map((e) => e.requirement));
      for (const requirement of engine.requirements) {
        const marker = requirement.marker;
        if (counted.has(requirement) || marker === null || requirement.specifier === '') continue;
        const extra = engine.providesExtra.find(
          (name) => evaluateMarker(marker, context.environment.markers, name) === true,
        );
        const target = context.installed.get(requirement.key);
        if (extra === undefined || target === undefined) continue;
        if (satisfiesSpecifier(target.version, requirement.specifier) !== false) continue;
        problems.push({
          detail: `${engine.name} ${engine.version} pins ${requirement.name}${requirement.specifier} for its [${extra}] extra, but ${target.name} ${target.version} is installed. If you installed ${engine.name}[${extra}], the engine runs against a version it was not released with.`,
          fix: formatInstall([`${requirement.name}${requirement.specifier}`], target),
          packages: [engine.name, target.name],
        });
      }
    }
    return problems;
  },
});
