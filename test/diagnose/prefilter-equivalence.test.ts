import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/index.js';
import { logsUnder } from '../helpers/logs-under.js';

const ROOT = join(import.meta.dirname, '../..');

/** Every .log below a folder: signature fixtures, held-out logs, the bundled incident. */

const LOGS = [
  ...logsUnder(join(ROOT, 'src/signatures')),
  ...logsUnder(join(ROOT, 'test/fixtures')),
  ...logsUnder(join(ROOT, 'examples')),
];

// The scanner skips lines that cannot matter; the diagnosis must be the one a full read gives.
describe('skipping chatter changes no diagnosis', () => {
  it(`holds for all ${LOGS.length} logs in the repository`, () => {
    expect(LOGS.length).toBeGreaterThan(300);
    const differ = LOGS.filter((path) => {
      const text = readFileSync(path);
      const fast = diagnose(text);
      const full = diagnose(text, { readEveryLine: true });
      return (
        JSON.stringify({ ...fast, input: null, processes: null }) !==
        JSON.stringify({ ...full, input: null, processes: null })
      );
    });
    expect(differ.map((path) => path.slice(ROOT.length + 1))).toEqual([]);
    // Every log here read twice: its time grows with the fixtures (half a minute on a busy 2-core machine).
  }, 180_000);
});
