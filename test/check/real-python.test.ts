import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/environment/index.js';

const pip = spawnSync('python3', ['-m', 'pip', 'check'], {
  encoding: 'utf8',
  env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' },
});
const available = pip.error === undefined && pip.status !== null && !/No module named pip/.test(pip.stderr);

// Checks that read the environment's packages; the rest depend on the host (disk, shm, GPU).
const PACKAGE_CHECKS = new Set([
  'requirement-unmet',
  'extra-requirement-unmet',
  'requires-python',
  'duplicate-distribution',
  'file-overlap',
  'metadata-unreadable',
]);

describe.skipIf(!available)("this machine's python3", () => {
  it('agrees with `python3 -m pip check`', async () => {
    const report = await runCheck({ python: 'python3', env: { ...process.env, VIRTUAL_ENV: undefined } });
    expect(report.environment.distributions).toBeGreaterThan(0);
    const unmet = report.findings.filter((f) => f.id === 'requirement-unmet');
    if (pip.status === 0) {
      // pip found nothing: neither may we, among the checks that look at packages.
      expect(report.findings.filter((f) => f.severity === 'error' && PACKAGE_CHECKS.has(f.id))).toEqual([]);
      expect(unmet).toEqual([]);
    } else {
      // pip found something: every "requires"/"has requirement" line of pip's is one of ours.
      const pipLines = pip.stdout.split('\n').filter((line) => / requires | has requirement /.test(line));
      for (const line of pipLines) {
        const dependent = line.split(' ')[0] ?? '';
        expect(unmet.some((f) => f.detail.toLowerCase().startsWith(dependent.toLowerCase()))).toBe(true);
      }
    }
  });
});
