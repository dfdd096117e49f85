import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/environment/index.js';
import { makeTempDir, writeSyntheticEnvironment } from './helpers/write-environment.js';

let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

describe('writeSyntheticEnvironment (the benchmark’s input)', () => {
  it('writes the requested number of distributions, with nothing to report but notes', async () => {
    const { sitePackages } = writeSyntheticEnvironment(dir.path, 120);
    const report = await runCheck({ sitePackages: [sitePackages], env: { PATH: '/nonexistent' } });
    expect(report.environment.distributions).toBe(120);
    const problems = report.findings.filter(
      (f) => f.severity !== 'info' && !['disk-space-low', 'shm-too-small'].includes(f.id),
    );
    expect(problems).toEqual([]);
  });
});
