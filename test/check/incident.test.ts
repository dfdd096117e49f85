import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/environment/index.js';
import { makeTempDir, writeEnvironment, type DistributionSpec } from './helpers/write-environment.js';

// Findings that depend on the machine running the test, not on the environment written.
const HOST_CHECKS = new Set(['disk-space-low', 'shm-too-small', 'gpu-unavailable']);

const incident: DistributionSpec[] = [
  {
    name: 'vllm',
    version: '0.16.0rc2.dev344+gea5f903f8',
    requires: ['flashinfer-python==0.6.4', 'torch==2.10.0', 'numpy'],
  },
  {
    name: 'torch',
    version: '2.10.0+cu130',
    requires: ['triton==3.6.0; platform_system == "Linux"'],
    modules: { 'torch/version.py': "__version__ = '2.10.0+cu130'\ncuda: Optional[str] = '13.0'\n" },
  },
  { name: 'triton', version: '3.6.0' },
  { name: 'numpy', version: '2.2.6' },
  { name: 'flashinfer-python', version: '0.6.4', requires: ['torch', 'numpy'] },
];

let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

async function check(companions: DistributionSpec[]) {
  const { sitePackages } = writeEnvironment(dir.path, [...incident, ...companions]);
  const report = await runCheck({ sitePackages: [sitePackages], env: { PATH: '/nonexistent' } });
  return report.findings.filter((finding) => !HOST_CHECKS.has(finding.id));
}

describe('the incident environment', () => {
  it('fails on flashinfer-cubin 0.6.3 beside flashinfer-python 0.6.4, with the fix', async () => {
    const findings = await check([{ name: 'flashinfer-cubin', version: '0.6.3' }]);
    expect(findings).toEqual([
      expect.objectContaining({
        id: 'flashinfer-version-mismatch',
        severity: 'error',
        fix: 'pip install flashinfer-cubin==0.6.4',
        packages: ['flashinfer-cubin', 'flashinfer-python'],
      }),
    ]);
    expect(findings[0]?.detail).toMatch(
      /flashinfer-cubin 0\.6\.3 is installed beside flashinfer-python 0\.6\.4/,
    );
  });

  it('gives the uv command when uv installed the cubin', async () => {
    const findings = await check([{ name: 'flashinfer-cubin', version: '0.6.3', installer: 'uv' }]);
    expect(findings[0]?.fix).toBe('uv pip install flashinfer-cubin==0.6.4');
  });

  it('is clean with flashinfer-cubin 0.6.4 and flashinfer-jit-cache 0.6.4+cu130', async () => {
    const findings = await check([
      { name: 'flashinfer-cubin', version: '0.6.4' },
      { name: 'flashinfer-jit-cache', version: '0.6.4+cu130' },
    ]);
    expect(findings).toEqual([]);
  });
});
