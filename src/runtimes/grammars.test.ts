import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../diagnosis/index.js';
import { FAILURE_LINES, RUNTIME_GRAMMARS } from './index.js';

const HERE = new URL('.', import.meta.url).pathname;
const FOLDERS = readdirSync(HERE, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

interface Expected {
  root_cause: { exception: string | null; message_contains: string };
}

/** Each runtime's fixtures: a real log and what its root cause is. */
const FIXTURES = FOLDERS.flatMap((runtime) => {
  const dir = join(HERE, runtime, 'fixtures');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.log'))
    .map((name) => ({
      runtime,
      name,
      log: readFileSync(join(dir, name), 'utf8'),
      expected: JSON.parse(readFileSync(join(dir, name.replace(/\.log$/, '.json')), 'utf8')) as Expected,
    }));
});

const collapse = (text: string): string => text.replace(/\s+/g, ' ');
const lastSegment = (type: string): string => type.slice(type.lastIndexOf('.') + 1);

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
    const found = diagnose(log).rootCause;
    expect(found).not.toBeNull();
    const text = collapse(`${found?.exception ?? ''}: ${found?.message ?? ''}`);
    const wanted = collapse(expected.root_cause.message_contains);
    expect(text.includes(wanted) || collapse(found?.line ?? '').includes(wanted)).toBe(true);
    if (expected.root_cause.exception !== null)
      expect(lastSegment(found?.exception ?? '')).toBe(lastSegment(expected.root_cause.exception));
  });
});
