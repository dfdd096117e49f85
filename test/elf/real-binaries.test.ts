import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inspectSharedObject } from '../../src/elf/index.js';
import { withFile } from '../../src/environment/read-shared-objects.js';
import { writeFakeNvidiaSmi } from '../check/helpers/fake-nvidia-smi.js';
import { runVigil } from '../check/helpers/run-cli.js';
import { makeTempDir, writeEnvironment } from '../check/helpers/write-environment.js';

/**
 * Real CUDA libraries from npm, fetched by scripts/fetch-test-binaries.sh (.ci/run runs it). The
 * architectures below were cross-checked once by hand with an independent Python dump of the same
 * fatbin headers (struct.unpack over .nv_fatbin, counting entries per kind and arch):
 *   node-llama-cpp 3.6.0 libggml-cuda.so (llama.cpp b4753, CUDA 12.2, libcudart.so.12): 71 containers,
 *     each with SASS sm_50, sm_61, sm_70, sm_75, sm_80 and PTX of the same five at ISA 8.2, LZ4-compressed
 *     (CMake's default list "50;61;70;75;80" builds real and virtual code for each);
 *   @fugood/node-llama-linux-x64-cuda 1.7.15 index.node: 141 containers, SASS sm_89 and PTX compute_89 (ISA 8.5).
 */
const BINARIES = resolve(import.meta.dirname, '../.binaries');
const GGML = join(BINARIES, 'node-llama-cpp-3.6.0-libggml-cuda.so');
const FUGOOD = join(BINARIES, 'fugood-node-llama-1.7.15-cuda.node');
const present = existsSync(GGML) && existsSync(FUGOOD);
if (!present) {
  console.warn('skipping real CUDA binary tests: run scripts/fetch-test-binaries.sh to fetch them from npm');
}

describe.skipIf(!present)('the ELF reader on real CUDA libraries from npm', () => {
  it('lists the SASS and PTX of node-llama-cpp 3.6.0 libggml-cuda.so', () => {
    const facts = withFile(GGML, (reader) => inspectSharedObject(reader));
    expect(facts.fatbin).toEqual({
      sass: [50, 61, 70, 75, 80],
      ptx: [50, 61, 70, 75, 80].map((arch) => ({ arch, version: '8.2' })),
      compressedEntries: 71 * 5,
      containers: 71,
      truncated: false,
    });
    expect(facts.needed).toContain('libcudart.so.12');
    expect(facts.needed).toContain('libcublas.so.12');
  });

  it('lists the single architecture of @fugood/node-llama index.node', () => {
    const facts = withFile(FUGOOD, (reader) => inspectSharedObject(reader));
    expect(facts.fatbin).toMatchObject({ sass: [89], ptx: [{ arch: 89, version: '8.5' }], containers: 141 });
    expect(facts.needed).toEqual(expect.arrayContaining(['libcudart.so.12', 'libnccl.so.2']));
  });
});

describe.skipIf(!present)('vigil check --gpu on a site-packages tree holding a real CUDA library', () => {
  let dir: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    dir = makeTempDir();
  });
  afterEach(() => dir.remove());

  /** A distribution whose RECORD lists the library, linked (not copied: 460 MB) into site-packages. */
  function install(library: string, as: string): string {
    const { sitePackages } = writeEnvironment(join(dir.path, 'venv'), [
      { name: 'ggml-kernels', version: '0.1.0', files: [as] },
    ]);
    mkdirSync(join(sitePackages, 'ggml_kernels'), { recursive: true });
    symlinkSync(library, join(sitePackages, as));
    return sitePackages;
  }

  async function check(library: string, capability: string, env: Record<string, string> = {}) {
    const sitePackages = install(library, 'ggml_kernels/libggml-cuda.so');
    const path = writeFakeNvidiaSmi(dir.path, { gpus: [`NVIDIA GPU, ${capability}, 575.51.03, 500, 32607`] });
    return runVigil(['check', '--gpu', '--format', 'json', '--site-packages', sitePackages], {
      env: { PATH: path, ...env },
    });
  }

  function kernelFindings(stdout: string): { severity: string; detail: string }[] {
    const report = JSON.parse(stdout) as { findings: { id: string; severity: string; detail: string }[] };
    return report.findings.filter((finding) => finding.id === 'kernel-image-missing');
  }

  it('is clean on compute capability 8.0, which the library has SASS for', async () => {
    const result = await check(GGML, '8.0');
    expect(kernelFindings(result.stdout)).toEqual([]);
    expect(result.code).toBe(0);
  });

  it('on 12.0 names the file and the missing sm_120, as a warning: its compute_80 PTX can be JIT-compiled', async () => {
    const result = await check(GGML, '12.0');
    const [finding, ...rest] = kernelFindings(result.stdout);
    expect(rest).toEqual([]);
    expect(finding?.severity).toBe('warning');
    expect(finding?.detail).toContain('ggml_kernels/libggml-cuda.so');
    expect(finding?.detail).toContain('no sm_120 SASS');
    expect(finding?.detail).toContain('SASS sm_50, sm_61, sm_70, sm_75, sm_80');
  });

  it('on 12.0 with the PTX JIT off (CUDA_DISABLE_PTX_JIT=1) exits 1 naming the file and sm_120', async () => {
    const result = await check(GGML, '12.0', { CUDA_DISABLE_PTX_JIT: '1' });
    const [finding] = kernelFindings(result.stdout);
    expect(result.code).toBe(1);
    expect(finding?.severity).toBe('error');
    expect(finding?.detail).toMatch(/ggml_kernels\/libggml-cuda\.so.*nothing for sm_120/);
  });

  it('exits 1 on 8.0 for a library built for sm_89 only: no SASS and no PTX at or below 8.0', async () => {
    const result = await check(FUGOOD, '8.0');
    const [finding] = kernelFindings(result.stdout);
    expect(result.code).toBe(1);
    expect(finding?.detail).toContain('nothing for sm_80');
    expect(finding?.detail).toContain('SASS sm_89; PTX compute_89 (ISA 8.5)');
    expect(finding?.detail).toContain('its PTX is for newer GPUs only');
  });

  it('is clean on 8.9 for that sm_89 library', async () => {
    const result = await check(FUGOOD, '8.9');
    expect(kernelFindings(result.stdout)).toEqual([]);
    expect(result.code).toBe(0);
  });
});
