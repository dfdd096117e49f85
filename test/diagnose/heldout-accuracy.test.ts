import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/index.js';
import { scoreCase, type CaseLabel } from '../../src/evaluation/score-case.js';

const FIXTURES = join(import.meta.dirname, '../fixtures');

function score(folder: string): { name: string; ok: boolean; reason: string }[] {
  const dir = join(FIXTURES, folder);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.log'))
    .map((name) => {
      const label = JSON.parse(readFileSync(join(dir, name.replace(/\.log$/, '.json')), 'utf8')) as CaseLabel;
      const result = scoreCase(diagnose(readFileSync(join(dir, name))), label);
      return { name, ok: result.rootCause, reason: result.reason };
    });
}

describe('real logs from public threads, kept beside the tests', () => {
  it('names the labelled root cause in at least 90% of test/fixtures/heldout', () => {
    const results = score('heldout');
    const misses = results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.reason}`);
    expect(results.length).toBeGreaterThan(30);
    expect(misses.length / results.length, misses.join('\n')).toBeLessThanOrEqual(0.1);
  });

  it('blames nothing in test/fixtures/healthy-extra', () => {
    const alarms = score('healthy-extra').filter((r) => !r.ok);
    expect(alarms.map((r) => `${r.name}: ${r.reason}`)).toEqual([]);
  });
});
