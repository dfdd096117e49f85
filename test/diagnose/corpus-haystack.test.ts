import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOUNDARIES, type Boundary } from '../../src/evaluation/build-haystack.js';
import { evaluateCases, evaluateHaystack, type LabelledCase } from '../../src/evaluation/evaluate-cases.js';
import type { CaseLabel } from '../../src/evaluation/score-case.js';

/** The labelled logs shared beside the repository (../shared); absent in a plain clone elsewhere. */
const SHARED = join(import.meta.dirname, '../../../shared');
const FOLDERS = {
  failures: ['corpus', 'corpus-2', 'corpus-3'],
  healthy: ['healthy', 'healthy-2', 'healthy-3'],
};
/** The share of each corpus whose category is right (issue 30 asks 80% of logs no one tuned on; corpus-3 was that). */
const CATEGORY_BOUND: Record<string, number> = { corpus: 0.85, 'corpus-2': 0.85, 'corpus-3': 0.8 };
/** The folders the general classifier alone is held to 85% on (corpus-3: 76% without signatures). */
const CLASSIFIER_FOLDERS = ['corpus/', 'corpus-2/'];
const present = [...FOLDERS.failures, ...FOLDERS.healthy].every((f) => existsSync(join(SHARED, f)));

function read(folders: readonly string[]): LabelledCase[] {
  return folders.flatMap((folder) => {
    const dir = join(SHARED, folder);
    return readdirSync(dir)
      .filter((name) => name.endsWith('.log'))
      .sort()
      .map((name) => ({
        name: `${folder}/${name}`,
        text: readFileSync(join(dir, name), 'utf8'),
        label: JSON.parse(readFileSync(join(dir, name.replace(/\.log$/, '.json')), 'utf8')) as CaseLabel,
      }));
  });
}

if (!present) {
  console.log(
    `skipped: the shared corpus and healthy logs are not at ${SHARED} (../shared beside the checkout)`,
  );
}

/** npm run eval:all: every shared corpus inside the healthy logs (issue 30). */
describe.skipIf(!present)('the failure corpus inside the healthy logs, as a whole journal holds it', () => {
  const failures = present ? read(FOLDERS.failures) : [];
  const healthy = present ? read(FOLDERS.healthy) : [];

  // Each healthy folder alone and both together: a failure after a few healthy logs is not the same test as
  // one after many (a warning of one folder's logs was once blamed only with that folder in front).
  const WHOLE_CORPUS_TIMEOUT = 180_000;
  const HAYSTACKS = [['healthy'], ['healthy-2'], ['healthy-3'], FOLDERS.healthy];
  const cases = HAYSTACKS.flatMap((folders) => BOUNDARIES.map((boundary) => [folders.join(' + '), boundary]));

  it.each(cases)(
    'inside %s with boundary %s: names the root cause in at least 97 of 100, and blames no healthy line',
    (folders, boundary) => {
      const hay = healthy.filter((c) => folders.split(' + ').some((f) => c.name.startsWith(`${f}/`)));
      const results = evaluateCases(failures, { haystack: hay, boundary: boundary as Boundary });
      const misses = results.filter((r) => !r.rootCause).map((r) => `${r.name}: ${r.reason}`);
      expect(results.length).toBeGreaterThanOrEqual(90);
      expect(misses.length / results.length, misses.join('\n')).toBeLessThanOrEqual(0.03);
      expect(misses.filter((m) => m.includes('blamed a healthy line'))).toEqual([]);
    },
    // Each case diagnoses the whole corpus inside thousands of healthy lines: a minute on a busy 2-core machine.
    WHOLE_CORPUS_TIMEOUT,
  );

  it.each(FOLDERS.failures)('gives the right category to its bound of %s', (folder) => {
    const results = evaluateCases(failures.filter((c) => c.name.startsWith(`${folder}/`)));
    const wrong = results
      .filter((r) => !r.category)
      .map((r) => `${r.name}: ${r.gotCategory} for ${r.expectedCategory}`);
    expect(results.length).toBeGreaterThanOrEqual(40);
    expect(1 - wrong.length / results.length, wrong.join('\n')).toBeGreaterThanOrEqual(
      CATEGORY_BOUND[folder] ?? 1,
    );
  });

  it('blames no healthy log read alone', () => {
    const blamed = evaluateCases(healthy).filter((r) => !r.rootCause);
    expect(blamed.map((r) => `${r.name}: ${r.reason}`)).toEqual([]);
  });

  it.each(BOUNDARIES)('finds no failure in all the healthy logs in a row (boundary %s)', (boundary) => {
    const result = evaluateHaystack(healthy, boundary);
    expect(result.rootCause, result.reason).toBe(true);
  });

  it('names the root cause in at least 95% of each log alone', () => {
    const results = evaluateCases(failures);
    const misses = results.filter((r) => !r.rootCause).map((r) => `${r.name}: ${r.reason}`);
    expect(misses.length / results.length, misses.join('\n')).toBeLessThanOrEqual(0.05);
  });

  it('gives the right category to at least 85% with the general classifier alone (--no-signatures)', () => {
    const classified = failures.filter((c) => CLASSIFIER_FOLDERS.some((f) => c.name.startsWith(f)));
    const results = evaluateCases(classified, { signatures: [] });
    const wrong = results
      .filter((r) => !r.category)
      .map((r) => `${r.name}: ${r.gotCategory} for ${r.expectedCategory}`);
    expect(wrong.length / results.length, wrong.join('\n')).toBeLessThanOrEqual(0.15);
  });
});
