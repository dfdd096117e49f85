import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/index.js';
import { scoreCase, type CaseLabel } from '../../src/evaluation/score-case.js';

// Long real logs copied from public repositories (see each folder's README for the sources and rules).
// long-real is for development; unseen-long is measured and never tuned on.
const FIXTURES = join(import.meta.dirname, '../fixtures');

interface Label extends CaseLabel {
  source: string;
}

interface Case {
  name: string;
  label: Label;
  lines: number;
  /** Root cause (and, for a failure, category) as labelled; for a healthy log, nothing blamed. */
  ok: boolean;
  reason: string;
}

function cases(folder: string): Case[] {
  const dir = join(FIXTURES, folder);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.log'))
    .sort()
    .map((name) => {
      const log = readFileSync(join(dir, name));
      const label = JSON.parse(readFileSync(join(dir, name.replace(/\.log$/, '.json')), 'utf8')) as Label;
      const score = scoreCase(diagnose(log), label);
      const failing = label.root_cause != null;
      const ok = failing ? score.rootCause && score.category : score.rootCause;
      const reason = failing && score.rootCause && !score.category ? 'category differs' : score.reason;
      return { name, label, lines: log.toString('utf8').split('\n').length - 1, ok, reason };
    });
}

const missesOf = (all: Case[]): string[] => all.filter((c) => !c.ok).map((c) => `${c.name}: ${c.reason}`);

describe.each(['long-real', 'unseen-long'])(
  'test/fixtures/%s holds long real logs with their provenance',
  (folder) => {
    const all = cases(folder);
    it('labels every log with a public source and an engine', () => {
      for (const c of all) {
        expect(c.label.source, c.name).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+\//);
        expect(c.label.engine, c.name).toMatch(/^(vllm|sglang|tgi|trtllm|llamacpp|ollama|lmdeploy)$/);
      }
    });

    it('keeps healthy logs at 200 lines or more', () => {
      const short = all
        .filter((c) => c.label.root_cause == null && c.lines < 200)
        .map((c) => `${c.name}: ${c.lines}`);
      expect(short).toEqual([]);
    });
  },
);

// ---------------------------------------------------------------------------------------------------------
describe('test/fixtures/long-real (development)', () => {
  // Logs Vigil gets wrong today, each with why. src/diagnosis is changed to fix them, never this list alone;
  // remove an entry once its log passes.
  const KNOWN_MISSES: Record<string, string> = {
    'vllm-002.log':
      "category: its label says other for a kernel's device-side assert; of the logs with one in test/fixtures and ../shared, 13 are labelled illegal-memory-access (what the kernel-assert signatures give) and 4 other",
  };
  const all = cases('long-real');

  it('has at least 10 healthy logs and 3 failing ones', () => {
    expect(all.filter((c) => c.label.root_cause == null).length).toBeGreaterThanOrEqual(10);
    expect(all.filter((c) => c.label.root_cause != null).length).toBeGreaterThanOrEqual(3);
  });

  it('blames nothing in a healthy log and names each failure and its category, but for the known misses', () => {
    const unexpected = missesOf(all).filter((miss) => !(miss.split(':')[0]! in KNOWN_MISSES));
    expect(unexpected).toEqual([]);
  });

  it('lists only logs that are in the folder as known misses', () => {
    const names = new Set(all.map((c) => c.name));
    expect(Object.keys(KNOWN_MISSES).filter((name) => !names.has(name))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe('test/fixtures/unseen-long (measured, never tuned on)', () => {
  // The figure measured when the folder was made. A miss here is recorded, never fixed by editing for the
  // log; the count may rise as Vigil improves in general, and must not fall.
  // Measured 2026-12-01 (node dist/cli/bin.js eval test/fixtures/unseen-long): 6 of 7. The recorded miss:
  // vllm-002.log (Ray placement group short of GPUs), where no root cause is reported.
  const RECORDED = { passing: 6, of: 7 };
  const all = cases('unseen-long');

  it('has at least 5 healthy logs and 2 failing ones', () => {
    expect(all.filter((c) => c.label.root_cause == null).length).toBeGreaterThanOrEqual(5);
    expect(all.filter((c) => c.label.root_cause != null).length).toBeGreaterThanOrEqual(2);
  });

  it(`still gets at least ${RECORDED.passing} of its ${RECORDED.of} logs right`, () => {
    expect(all.length).toBe(RECORDED.of);
    expect(all.filter((c) => c.ok).length, missesOf(all).join('\n')).toBeGreaterThanOrEqual(RECORDED.passing);
  });
});
