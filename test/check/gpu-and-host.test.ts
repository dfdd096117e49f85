import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readGpu, runCheck, waitGpuFree } from '../../src/environment/index.js';
import { probePort } from '../../src/environment/read-host.js';
import { writeFakeNvidiaSmi } from './helpers/fake-nvidia-smi.js';
import { makeTempDir, writeEnvironment, type DistributionSpec } from './helpers/write-environment.js';

let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

const torch130: DistributionSpec = {
  name: 'torch',
  version: '2.10.0+cu130',
  modules: { 'torch/version.py': "cuda = '13.0'\n" },
};
const H200 = 'NVIDIA H200, 9.0, 580.65.06';

async function gpuFindings(fake: Parameters<typeof writeFakeNvidiaSmi>[1], gpu = false) {
  const path = writeFakeNvidiaSmi(dir.path, fake);
  const { sitePackages } = writeEnvironment(join(dir.path, 'venv'), [torch130]);
  const report = await runCheck({ sitePackages: [sitePackages], env: { PATH: path }, gpu });
  return report.findings.filter((f) => !['disk-space-low', 'shm-too-small'].includes(f.id));
}

describe('GPU checks through a fake nvidia-smi on PATH', () => {
  it('reads the CSV of both queries', async () => {
    const path = writeFakeNvidiaSmi(dir.path, {
      gpus: [`${H200}, 1024, 143771`, `${H200}, 0, 143771`],
      apps: ['4242, VLLM::EngineCore, 1000'],
    });
    expect(await readGpu({ PATH: path })).toEqual({
      status: 'ok',
      gpus: [
        {
          index: 0,
          name: 'NVIDIA H200',
          computeCapability: '9.0',
          driverVersion: '580.65.06',
          memoryUsedMiB: 1024,
          memoryTotalMiB: 143771,
        },
        {
          index: 1,
          name: 'NVIDIA H200',
          computeCapability: '9.0',
          driverVersion: '580.65.06',
          memoryUsedMiB: 0,
          memoryTotalMiB: 143771,
        },
      ],
      processes: [{ pid: 4242, name: 'VLLM::EngineCore', usedMemoryMiB: 1000 }],
    });
  });

  it('is quiet on a healthy GPU', async () => {
    expect(await gpuFindings({ gpus: [`${H200}, 300, 143771`] })).toEqual([]);
  });

  it('flags a driver too old for torch and memory held by another process', async () => {
    const findings = await gpuFindings({
      gpus: ['NVIDIA H200, 9.0, 570.133.20, 90000, 143771'],
      apps: ['4242, VLLM::EngineCore, 89000'],
    });
    expect(findings.map((f) => [f.id, f.severity])).toEqual([
      ['driver-too-old', 'error'],
      ['gpu-memory-held', 'error'],
    ]);
    expect(findings[1]?.detail).toContain('4242 VLLM::EngineCore');
  });

  it('falls back when the driver does not know compute_cap', async () => {
    const path = writeFakeNvidiaSmi(dir.path, {
      gpus: ['Tesla K80, 3.7, 470.256.02, 0, 11441'],
      noComputeCap: true,
    });
    const reading = await readGpu({ PATH: path });
    expect(reading).toMatchObject({
      status: 'ok',
      gpus: [{ name: 'Tesla K80', computeCapability: null, driverVersion: '470.256.02' }],
    });
  });

  it('warns when nvidia-smi fails, and errors with --gpu', async () => {
    expect((await gpuFindings({ broken: true })).map((f) => [f.id, f.severity])).toEqual([
      ['gpu-unavailable', 'warning'],
    ]);
    expect((await gpuFindings({ broken: true }, true)).map((f) => f.severity)).toEqual(['error']);
  });

  it('notes a missing nvidia-smi, and makes it an error with --gpu', async () => {
    const { sitePackages } = writeEnvironment(join(dir.path, 'venv'), [torch130]);
    const note = await runCheck({ sitePackages: [sitePackages], env: { PATH: '/nonexistent' } });
    const demanded = await runCheck({
      sitePackages: [sitePackages],
      env: { PATH: '/nonexistent' },
      gpu: true,
    });
    expect(note.findings.filter((f) => f.id === 'gpu-unavailable').map((f) => f.severity)).toEqual(['info']);
    expect(demanded.findings.filter((f) => f.id === 'gpu-unavailable').map((f) => f.severity)).toEqual([
      'error',
    ]);
  });

  it('waits for held memory through the real nvidia-smi subprocess, then gives up', async () => {
    const path = writeFakeNvidiaSmi(dir.path, { gpus: ['NVIDIA H200, 9.0, 580.65.06, 90000, 143771'] });
    const result = await waitGpuFree(0.3, { env: { PATH: path }, pollMs: 100 });
    expect(result.outcome).toBe('timeout');
    expect(result.waitedMs).toBeGreaterThanOrEqual(250);
  });
});

describe('port check with a real socket', () => {
  let server: Server | null = null;
  afterEach(async () => {
    await new Promise<void>((done) => (server === null ? done() : server.close(() => done())));
    server = null;
  });

  it('finds a bound port in use and a released one free', async () => {
    server = createServer();
    const port = await new Promise<number>((done) => {
      server?.listen(0, '127.0.0.1', () => {
        const address = server?.address();
        done(typeof address === 'object' && address !== null ? address.port : 0);
      });
    });
    expect(await probePort(port)).toEqual({ port, state: 'in-use', address: '127.0.0.1' });
    const { sitePackages } = writeEnvironment(join(dir.path, 'venv'), []);
    const report = await runCheck({ sitePackages: [sitePackages], env: { PATH: '/nonexistent' }, port });
    expect(report.findings.filter((f) => f.id === 'port-in-use').map((f) => f.severity)).toEqual(['error']);
    await new Promise<void>((done) => server?.close(() => done()));
    server = null;
    expect(await probePort(port)).toEqual({ port, state: 'free', address: null });
  });
});
