import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/index.js';
import { scoreCase, type CaseLabel } from '../../src/evaluation/score-case.js';

const FIXTURES = join(import.meta.dirname, '../fixtures');

interface Scored {
  name: string;
  healthy: boolean;
  ok: boolean;
  reason: string;
}

function score(folder: string): Scored[] {
  const dir = join(FIXTURES, folder);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.log'))
    .map((name) => {
      const label = JSON.parse(readFileSync(join(dir, name.replace(/\.log$/, '.json')), 'utf8')) as CaseLabel;
      const result = scoreCase(diagnose(readFileSync(join(dir, name))), label);
      return { name, healthy: result.healthy !== null, ok: result.rootCause, reason: result.reason };
    });
}

/** Real logs from public threads, kept beside the tests (see each folder's README). */
describe.each(['heldout', 'heldout-2'])('test/fixtures/%s', (folder) => {
  const results = score(folder);
  it('names the labelled root cause in at least 90% of the failures', () => {
    const failures = results.filter((r) => !r.healthy);
    const misses = failures.filter((r) => !r.ok).map((r) => `${r.name}: ${r.reason}`);
    expect(failures.length).toBeGreaterThan(30);
    expect(misses.length / failures.length, misses.join('\n')).toBeLessThanOrEqual(0.1);
  });

  it('blames nothing in its healthy logs', () => {
    expect(results.filter((r) => r.healthy && !r.ok).map((r) => `${r.name}: ${r.reason}`)).toEqual([]);
  });
});

describe.each(['healthy-extra', 'long-healthy'])('test/fixtures/%s', (folder) => {
  it('blames nothing', () => {
    expect(
      score(folder)
        .filter((r) => !r.ok)
        .map((r) => `${r.name}: ${r.reason}`),
    ).toEqual([]);
  });
});
