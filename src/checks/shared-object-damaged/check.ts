import { normalizeName } from '../../environment/normalize-name.js';
import type { SharedObjectReading } from '../../environment/read-shared-objects.js';
import { defineCheck, type Problem } from '../define-check.js';
import { formatInstall } from '../install-command.js';

const NAMED_FILES = 3;

/**
 * A compiled library RECORD lists that is cut short or not ELF: an interrupted download or a
 * reinstall that overwrote part of a package. Python stops at the import ("file too short", "invalid ELF
 * header"); pip check does not look.
 */
export default defineCheck({
  id: 'shared-object-damaged',
  severity: 'error',
  title: 'Compiled library damaged',
  run: ({ sharedObjects, installed }) => {
    const byDistribution = new Map<string, SharedObjectReading[]>();
    for (const reading of sharedObjects ?? []) {
      // A file RECORD lists but that is absent is left alone: test trees and trimmed images have many.
      if (reading.unreadable === null || reading.missing === true) continue;
      const key = `${reading.distribution}\0${reading.version}`;
      byDistribution.set(key, [...(byDistribution.get(key) ?? []), reading]);
    }
    const problems: Problem[] = [];
    for (const readings of byDistribution.values()) {
      const first = readings[0];
      if (first === undefined) continue;
      const named = readings
        .slice(0, NAMED_FILES)
        .map((reading) => `${reading.path} (${reading.unreadable})`);
      const more = readings.length - named.length;
      const distribution = installed.get(normalizeName(first.distribution));
      problems.push({
        detail:
          `${first.distribution} ${first.version}: ${named.join('; ')}${more > 0 ? ` and ${more} more` : ''}. ` +
          'Importing it fails ("file too short", "invalid ELF header").',
        fix: formatInstall([`${first.distribution}==${first.version}`], distribution, [
          '--force-reinstall',
          '--no-deps',
        ]),
        packages: [first.distribution],
      });
    }
    return problems;
  },
});
