import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../diagnosis/index.js';
import { scoreCase, type CaseLabel } from '../evaluation/score-case.js';
import { FAILURE_LINES, RUNTIME_GRAMMARS } from './index.js';

const HERE = new URL('.', import.meta.url).pathname;
const FOLDERS = readdirSync(HERE, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** Each runtime's fixtures: a real log and what its root cause is. */
const FIXTURES = FOLDERS.flatMap((runtime) => {
  const dir = join(HERE, runtime, 'fixtures');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.log'))
    .map((name) => ({
      runtime,
      name,
      log: readFileSync(join(dir, name), 'utf8'),
      expected: JSON.parse(readFileSync(join(dir, name.replace(/\.log$/, '.json')), 'utf8')) as CaseLabel,
    }));
});

describe('runtime grammars', () => {
  it('are one folder each, every folder listed', () => {
    expect(RUNTIME_GRAMMARS.map((g) => g.runtime).sort()).toEqual(FOLDERS);
  });

  it('have ids and ranks of their own', () => {
    const ids = FAILURE_LINES.map((line) => line.id);
    const ranks = FAILURE_LINES.map((line) => line.rank);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ranks).size).toBe(ranks.length);
  });

  it.each(FOLDERS)('%s has a fixture', (runtime) => {
    expect(FIXTURES.some((f) => f.runtime === runtime)).toBe(true);
  });

  it.each(FIXTURES)('$runtime: $name names its root cause', ({ log, expected }) => {
    // The corpus rule (../shared/corpus/README.md), as `vigil eval` scores it.
    const score = scoreCase(diagnose(log), expected);
    expect(score.rootCause, score.reason).toBe(true);
  });
});
