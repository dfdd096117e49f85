import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/environment/index.js';
import { makeTempDir, writeEnvironment, type DistributionSpec } from './helpers/write-environment.js';

const probe = spawnSync('python3', ['-m', 'pip', '--version'], { encoding: 'utf8' });
const available = probe.status === 0;

// Requirement cases where naive checkers and pip disagree; names are unique so the host's packages do not interfere.
const specs: DistributionSpec[] = [
  { name: 'vt-torch', version: '2.9.0+cu126' },
  { name: 'vt-engine', version: '0.16.0rc2.dev344+gea5f903f8' },
  { name: 'vt-pinned-local', version: '1', requires: ['vt-torch==2.9.0+cu128'] },
  { name: 'vt-pinned-public', version: '1', requires: ['vt-torch==2.9.0'] },
  { name: 'vt-wants-prerelease', version: '1', requires: ['vt-engine>=0.15'] },
  { name: 'vt-below-prerelease', version: '1', requires: ['vt-engine<0.16'] },
  { name: 'vt-missing', version: '1', requires: ['vt-not-installed>=1'] },
  { name: 'vt-marker-false', version: '1', requires: ['vt-not-installed; sys_platform == "win32"'] },
  {
    name: 'vt-marker-true',
    version: '1',
    requires: ['vt-not-installed-2; python_version >= "3.8" and os_name == "posix"'],
  },
  { name: 'vt-extra-only', version: '1', requires: ['vt-not-installed-3; extra == "x"'] },
  { name: 'vt-parens', version: '1', requires: ['vt-torch (>=2.9)'] },
  { name: 'vt-wildcard', version: '1', requires: ['vt-torch==2.8.*'] },
  { name: 'vt-compatible', version: '1', requires: ['vt-torch~=2.9.0'] },
];

let dir: ReturnType<typeof makeTempDir>;
let sitePackages = '';
beforeAll(() => {
  dir = makeTempDir();
  sitePackages = writeEnvironment(dir.path, specs).sitePackages;
});
afterAll(() => dir.remove());

/** "dependent → target" pairs from pip check's "requires"/"has requirement" lines for the vt- packages. */
function pipPairs(): string[] {
  const result = spawnSync('python3', ['-m', 'pip', 'check'], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: sitePackages, PIP_DISABLE_PIP_VERSION_CHECK: '1' },
  });
  return result.stdout
    .split('\n')
    .map((line) => /^(vt-\S+) \S+ (?:requires|has requirement) (vt-[\w.-]+?)(?:[=<>~!(\s,;]|$)/.exec(line))
    .filter((match) => match !== null)
    .map((match) => `${match[1]} → ${match[2]}`)
    .sort();
}

describe.skipIf(!available)('requirement-unmet agrees with pip check', () => {
  it('on local labels, pre-releases, markers, extras and legacy parentheses', async () => {
    // pip reads the tree through PYTHONPATH; vigil reads it as a folder, with this platform's markers.
    const report = await runCheck({ sitePackages: [sitePackages], env: { PATH: '/nonexistent' } });
    const ours = report.findings
      .filter((f) => f.id === 'requirement-unmet')
      .map((f) => `${f.packages[0] ?? ''} → ${f.packages[1] ?? ''}`)
      .sort();
    expect(ours).toEqual(pipPairs());
    expect(ours).toEqual([
      'vt-below-prerelease → vt-engine',
      'vt-marker-true → vt-not-installed-2',
      'vt-missing → vt-not-installed',
      'vt-pinned-local → vt-torch',
      'vt-wildcard → vt-torch',
    ]);
  });
});
