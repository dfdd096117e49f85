import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/index.js';
import { scoreCase, type CaseLabel } from '../../src/evaluation/score-case.js';

/** The labelled logs shared beside the repository (../shared); absent in a plain clone elsewhere. */
const SHARED = join(import.meta.dirname, '../../../shared');

function cases(folder: string): { name: string; log: Buffer; label: CaseLabel }[] {
  const dir = join(SHARED, folder);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.log'))
    .map((name) => ({
      name,
      log: readFileSync(join(dir, name)),
      label: JSON.parse(readFileSync(join(dir, name.replace(/\.log$/, '.json')), 'utf8')) as CaseLabel,
    }));
}

describe.skipIf(!existsSync(join(SHARED, 'corpus')))('accuracy on the shared logs', () => {
  it.each(['corpus', 'corpus-2', 'corpus-3'].filter((folder) => existsSync(join(SHARED, folder))))(
    'names the labelled root cause in at least 97%% of %s',
    (folder) => {
      const all = cases(folder);
      const misses = all.filter((c) => !scoreCase(diagnose(c.log), c.label).rootCause).map((c) => c.name);
      expect(misses.length / all.length, `missed: ${misses.join(', ')}`).toBeLessThanOrEqual(0.03);
    },
  );

  it('blames nothing in any healthy log', () => {
    for (const c of cases('healthy')) {
      const d = diagnose(c.log);
      expect(d.rootCause, `${c.name}: ${d.rootCause?.line ?? ''}`).toBeNull();
      expect(d.verdict).toBe('no-failure');
    }
  });
});
