import { describe, expect, it } from 'vitest';
import type { FatbinSummary } from '../../elf/index.js';
import type { SharedObjectReading } from '../../environment/read-shared-objects.js';
import { gpuReading } from '../../../test/check/helpers/gpu-readings.js';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';
import { findKernelSupport, ptxCuda } from './kernel-support.js';

function fatbin(sass: number[], ptx: [number, string][] = []): FatbinSummary {
  return {
    sass,
    ptx: ptx.map(([arch, version]) => ({ arch, version })),
    compressedEntries: 0,
    containers: 1,
    truncated: false,
  };
}

function library(path: string, kernels: FatbinSummary | null, distribution = 'vllm'): SharedObjectReading {
  return {
    distribution,
    version: '0.11.0',
    path,
    facts: { needed: [], soname: null, fatbin: kernels, undefinedSymbols: [], hasSections: true },
    unreadable: null,
  };
}

describe('findKernelSupport', () => {
  const driver128 = { cuda: '12.8', orNewer: false };
  it.each<[string, FatbinSummary, string, string]>([
    ['exact SASS', fatbin([80, 90]), '9.0', 'sass'],
    ['SASS of a lower minor in the same major (sm_80 on 8.6)', fatbin([80]), '8.6', 'sass'],
    ['no SASS across majors (sm_90 on 10.0), no PTX', fatbin([80, 90]), '10.0', 'none'],
    ['no SASS of a higher minor (sm_89 on 8.0)', fatbin([89]), '8.0', 'none'],
    ['PTX at or below the capability', fatbin([80], [[90, '8.4']]), '12.0', 'ptx-jit'],
    ['PTX only above the capability', fatbin([], [[90, '8.4']]), '8.0', 'none'],
    [
      'PTX newer than the driver can JIT (ISA 8.8 = CUDA 12.9 on a 12.8 driver)',
      fatbin([], [[80, '8.8']]),
      '12.0',
      'none',
    ],
  ])('%s', (_name, kernels, capability, kind) => {
    expect(findKernelSupport(kernels, capability, driver128, false).kind).toBe(kind);
  });

  it('turns PTX off with CUDA_DISABLE_PTX_JIT', () => {
    expect(findKernelSupport(fatbin([80], [[80, '8.2']]), '12.0', driver128, true)).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('CUDA_DISABLE_PTX_JIT') as string,
    });
  });

  it.each([
    ['7.8', '11.8'],
    ['8.2', '12.2'],
    ['8.5', '12.5'],
    ['8.7', '12.8'],
    ['8.8', '12.9'],
    ['9.0', '13.0'],
    ['9.1', '13.1'],
  ])('PTX ISA %s came with CUDA %s', (isa, cuda) => {
    expect(ptxCuda(isa)).toBe(cuda);
  });
});

describe('kernel-image-missing', () => {
  const blackwell = gpuReading({
    name: 'NVIDIA RTX PRO 6000',
    computeCapability: '12.0',
    driverVersion: '575.51.03',
  });

  it('errs once per distribution, naming the file, what it has and the missing architecture', () => {
    const context = makeContext([], {
      gpu: blackwell,
      sharedObjects: [
        library('vllm/_C.abi3.so', fatbin([80, 90])),
        library('vllm/_moe_C.abi3.so', fatbin([80, 90])),
        library('vllm/cumem_allocator.abi3.so', null),
      ],
    });
    const problems = check.run(context);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.detail).toContain(
      'vllm/_C.abi3.so of vllm 0.11.0 carries SASS sm_80, sm_90; no PTX: nothing for sm_120',
    );
    expect(problems[0]?.detail).toContain('so does vllm/_moe_C.abi3.so');
    expect(problems[0]?.fix).toContain('TORCH_CUDA_ARCH_LIST="12.0"');
    expect(problems[0]?.fix).toContain('cu128');
  });

  it('only warns for a library of one other GPU family without PTX (an add-on such as FlashMLA for sm_90a)', () => {
    const ampere = gpuReading({ name: 'NVIDIA A100', computeCapability: '8.0' });
    const context = makeContext([], {
      gpu: ampere,
      sharedObjects: [library('vllm/_flashmla_C.abi3.so', fatbin([90]))],
    });
    const [problem, ...rest] = check.run(context);
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({
      severity: 'warning',
      title: 'CUDA library built for another GPU family only',
    });
    expect(problem?.detail).toContain(
      'vllm/_flashmla_C.abi3.so of vllm 0.11.0 carries only SASS sm_90; no PTX',
    );
  });

  it('points torch at the PyTorch index for the GPU', () => {
    const context = makeContext([], {
      gpu: blackwell,
      sharedObjects: [library('torch/lib/libtorch_cuda.so', fatbin([80, 90]), 'torch')],
    });
    expect(check.run(context)[0]?.fix).toContain('--index-url https://download.pytorch.org/whl/cu128');
  });

  it('warns when only PTX can serve the GPU', () => {
    const context = makeContext([], {
      gpu: blackwell,
      sharedObjects: [library('flash_attn_2_cuda.so', fatbin([80], [[80, '8.2']]))],
    });
    const [problem] = check.run(context);
    expect(problem?.severity).toBe('warning');
    expect(problem?.detail).toContain('JIT-compiles its compute_80 PTX');
  });

  it('is silent when SASS covers the GPU, without a GPU reading, and for libraries without kernels', () => {
    const hopper = gpuReading({ computeCapability: '9.0' });
    expect(
      check.run(makeContext([], { gpu: hopper, sharedObjects: [library('a.so', fatbin([80, 90]))] })),
    ).toEqual([]);
    expect(check.run(makeContext([], { gpu: null, sharedObjects: [library('a.so', fatbin([80]))] }))).toEqual(
      [],
    );
    expect(check.run(makeContext([], { gpu: blackwell, sharedObjects: [library('a.so', null)] }))).toEqual(
      [],
    );
  });
});
