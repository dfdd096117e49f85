import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSnapshot, readEnvironment, runCheck, type CheckOptions } from '../../src/environment/index.js';
import {
  makeTempDir,
  writeDistribution,
  writeEnvironment,
  type DistributionSpec,
} from './helpers/write-environment.js';

let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

const torch = (version: string, cuda: string | null, requires: string[] = []): DistributionSpec => ({
  name: 'torch',
  version,
  requires,
  modules: { 'torch/version.py': `cuda: Optional[str] = ${cuda === null ? 'None' : `'${cuda}'`}\n` },
});

interface Scenario {
  id: string;
  fires: DistributionSpec[];
  quiet: DistributionSpec[];
  /** Written into the same site-packages after the distributions (duplicates, leftovers). */
  extra?: (sitePackages: string) => void;
  python?: string;
}

const scenarios: Scenario[] = [
  {
    id: 'requirement-unmet',
    fires: [{ name: 'vllm', version: '0.16.0', requires: ['torch==2.10.0'] }, torch('2.9.1', '12.8')],
    quiet: [{ name: 'vllm', version: '0.16.0', requires: ['torch==2.10.0'] }, torch('2.10.0+cu128', '12.8')],
  },
  {
    id: 'extra-requirement-unmet',
    fires: [
      { name: 'torch', version: '2.14.0', requires: ['cuda-toolkit[cudart]==13.0.2'] },
      {
        name: 'cuda-toolkit',
        version: '13.0.2',
        providesExtra: ['cudart'],
        requires: ['nvidia-cuda-runtime==13.0.96; extra == "cudart"'],
      },
    ],
    quiet: [
      { name: 'torch', version: '2.14.0', requires: ['cuda-toolkit[cudart]==13.0.2'] },
      {
        name: 'cuda-toolkit',
        version: '13.0.2',
        providesExtra: ['cudart'],
        requires: ['nvidia-cuda-runtime==13.0.96; extra == "cudart"'],
      },
      { name: 'nvidia-cuda-runtime', version: '13.0.96' },
    ],
  },
  {
    id: 'requires-python',
    fires: [{ name: 'vllm', version: '0.11.2', requiresPython: '<3.14,>=3.10' }],
    quiet: [{ name: 'vllm', version: '0.11.2', requiresPython: '<3.14,>=3.10' }],
    python: '3.14.0',
  },
  {
    id: 'duplicate-distribution',
    fires: [{ name: 'numpy', version: '2.2.6' }],
    quiet: [{ name: 'numpy', version: '2.2.6' }],
    extra: (site) => writeDistribution(site, { name: 'numpy', version: '1.26.4' }),
  },
  {
    id: 'file-overlap',
    fires: [
      { name: 'nvidia-nccl-cu12', version: '2.27.3', files: ['nvidia/nccl/lib/libnccl.so.2'] },
      {
        name: 'nvidia-nccl-cu13',
        version: '2.28.3',
        files: [{ path: 'nvidia/nccl/lib/libnccl.so.2', hash: 'sha256=other' }],
      },
    ],
    quiet: [
      { name: 'nvidia-nccl-cu13', version: '2.28.3', files: ['nvidia/nccl/lib/libnccl.so.2'] },
      { name: 'nvidia-cublas-cu13', version: '13.0.0', files: ['nvidia/cublas/lib/libcublas.so.13'] },
    ],
  },
  {
    id: 'metadata-unreadable',
    fires: [{ name: 'numpy', version: '2.2.6' }],
    quiet: [{ name: 'numpy', version: '2.2.6' }],
    extra: (site) => mkdirSync(join(site, '~orch-2.9.0.dist-info')),
  },
  {
    id: 'flashinfer-version-mismatch',
    fires: [
      { name: 'flashinfer-python', version: '0.6.4' },
      { name: 'flashinfer-jit-cache', version: '0.6.3+cu130' },
    ],
    quiet: [
      { name: 'flashinfer-python', version: '0.6.4' },
      { name: 'flashinfer-jit-cache', version: '0.6.4+cu130' },
    ],
  },
  {
    id: 'torch-family-mismatch',
    fires: [torch('2.10.0', '13.0'), { name: 'torchvision', version: '0.24.1' }],
    quiet: [torch('2.10.0', '13.0'), { name: 'torchvision', version: '0.25.0' }],
  },
  {
    id: 'cuda-variant-mismatch',
    fires: [torch('2.10.0', '12.8'), { name: 'torchvision', version: '0.25.0+cu130' }],
    quiet: [torch('2.10.0', '13.0'), { name: 'torchvision', version: '0.25.0+cu130' }],
  },
  {
    id: 'nvidia-cuda-major-mix',
    fires: [
      torch('2.10.0', '13.0'),
      { name: 'nvidia-nccl-cu12', version: '2.27.3' },
      { name: 'nvidia-nccl-cu13', version: '2.28.3' },
    ],
    quiet: [torch('2.10.0', '13.0'), { name: 'nvidia-nccl-cu13', version: '2.28.3' }],
  },
  {
    id: 'engine-pin-mismatch',
    fires: [
      {
        name: 'sglang',
        version: '0.5.1',
        providesExtra: ['srt'],
        requires: ['torch==2.8.0; extra == "srt"'],
      },
      torch('2.9.0', '12.8'),
    ],
    quiet: [
      {
        name: 'sglang',
        version: '0.5.1',
        providesExtra: ['srt'],
        requires: ['torch==2.8.0; extra == "srt"'],
      },
      torch('2.8.0', '12.8'),
    ],
  },
  {
    // egg-info requires.txt sections become markers; the [:marker] section applies on Linux.
    id: 'requirement-unmet',
    fires: [
      {
        name: 'legacy',
        version: '1.0',
        eggInfo: true,
        requires: ['[:sys_platform == "linux"]', 'six>=1.16'],
      },
    ],
    quiet: [
      {
        name: 'legacy',
        version: '1.0',
        eggInfo: true,
        requires: ['[:sys_platform == "win32"]', 'six>=1.16'],
      },
    ],
  },
];

async function idsFor(
  specs: DistributionSpec[],
  scenario: Scenario,
  options: Partial<CheckOptions> = {},
): Promise<string[]> {
  const root = join(dir.path, String(Math.random()).slice(2));
  const { sitePackages } = writeEnvironment(root, specs, scenario.python);
  const report = await runCheck({ sitePackages: [sitePackages], env: { PATH: '/nonexistent' }, ...options });
  return report.findings.filter((f) => f.severity !== 'info').map((f) => f.id);
}

describe('each environment check on written dist-info trees', () => {
  it.each(scenarios.map((s) => [s.id, s] as const))('%s fires', async (id, scenario) => {
    const root = join(dir.path, 'fires');
    const { sitePackages } = writeEnvironment(root, scenario.fires, scenario.python);
    scenario.extra?.(sitePackages);
    const report = await runCheck({ sitePackages: [sitePackages], env: { PATH: '/nonexistent' } });
    expect(report.findings.map((f) => f.id)).toContain(id);
  });

  it.each(scenarios.map((s) => [s.id, s] as const))('%s stays quiet', async (id, scenario) => {
    const ids = await idsFor(scenario.quiet, {
      ...scenario,
      python: scenario.id === 'requires-python' ? '3.12.3' : scenario.python,
    });
    expect(ids).not.toContain(id);
    expect(ids.filter((found) => !['disk-space-low', 'shm-too-small'].includes(found))).toEqual([]);
  });
});

describe('--against a snapshot', () => {
  it('flags a family that moved in part, and is quiet when it moved whole', async () => {
    const before = writeEnvironment(join(dir.path, 'before'), [
      { name: 'flashinfer-python', version: '0.6.3' },
      { name: 'flashinfer-cubin', version: '0.6.3' },
    ]);
    const snapshotFile = join(dir.path, 'before.json');
    writeFileSync(
      snapshotFile,
      JSON.stringify(createSnapshot(await readEnvironment({ sitePackages: [before.sitePackages] }))),
    );
    const partial = [
      { name: 'flashinfer-python', version: '0.6.4' },
      { name: 'flashinfer-cubin', version: '0.6.3' },
    ];
    const whole = [
      { name: 'flashinfer-python', version: '0.6.4' },
      { name: 'flashinfer-cubin', version: '0.6.4' },
    ];
    const scenario = { id: 'family-moved-in-part', fires: partial, quiet: whole };
    expect(await idsFor(partial, scenario, { against: snapshotFile })).toContain('family-moved-in-part');
    expect(await idsFor(whole, scenario, { against: snapshotFile })).not.toContain('family-moved-in-part');
  });
});

describe('reading environments', () => {
  it('reads --venv with include-system-site-packages, the version from pyvenv.cfg, and sources', async () => {
    const base = writeEnvironment(join(dir.path, 'base'), [{ name: 'numpy', version: '1.26.4' }]);
    const venv = join(dir.path, 'venv');
    writeEnvironment(venv, [
      {
        name: 'vllm',
        version: '0.16.0',
        installer: 'uv',
        directUrl: { url: 'file:///src/vllm', dir_info: { editable: true } },
      },
    ]);
    writeFileSync(
      join(venv, 'pyvenv.cfg'),
      `home = ${join(base.prefix, 'bin')}\ninclude-system-site-packages = true\nversion_info = 3.12.11.final.0\n`,
    );
    const environment = await readEnvironment({ venv });
    expect(environment.pythonVersion).toBe('3.12.11');
    expect(environment.sitePackages).toEqual([join(venv, 'lib/python3.11/site-packages'), base.sitePackages]);
    expect(createSnapshot(environment).environment.distributions).toEqual([
      { name: 'numpy', version: '1.26.4', installer: 'pip', source: 'index' },
      { name: 'vllm', version: '0.16.0', installer: 'uv', source: 'editable file:///src/vllm' },
    ]);
  });

  it('uses $VIRTUAL_ENV when no option is given', async () => {
    const venv = writeEnvironment(join(dir.path, 'venv'), [{ name: 'torch', version: '2.10.0' }]);
    const environment = await readEnvironment({ env: { VIRTUAL_ENV: venv.prefix } });
    expect(environment.distributions.map((d) => d.name)).toEqual(['torch']);
  });

  it('refuses two environment options at once and a missing folder', async () => {
    await expect(readEnvironment({ venv: dir.path, python: 'python3' })).rejects.toThrow(/only one of/);
    await expect(readEnvironment({ sitePackages: [join(dir.path, 'nope')] })).rejects.toThrow(
      /no such folder/,
    );
  });
});
