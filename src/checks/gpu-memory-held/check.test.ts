import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import { gpuReading } from '../../../test/check/helpers/gpu-readings.js';
import check from './check.js';

describe('gpu-memory-held', () => {
  it('is an error when another process holds the memory, naming it', () => {
    const gpu = gpuReading({ memoryUsedMiB: 70_000 }, 1, [
      { pid: 4242, name: 'VLLM::EngineCore', usedMemoryMiB: 70_000 },
    ]);
    const [problem] = check.run(makeContext([], { gpu }));
    expect(problem?.detail).toContain('4242 VLLM::EngineCore (70000 MiB)');
    expect(problem?.fix).toContain('kill 4242');
  });

  it('says how long it waited with --wait-gpu-free', () => {
    const gpu = gpuReading({ memoryUsedMiB: 70_000 });
    expect(check.run(makeContext([], { gpu, gpuWaitedMs: 120_000 }))[0]?.detail).toContain(
      'still after waiting 120 s',
    );
  });

  it.each([
    ['an idle GPU', gpuReading({ memoryUsedMiB: 500 })],
    ['unified memory without numbers', gpuReading({ memoryUsedMiB: null, memoryTotalMiB: null })],
    ['no GPU', { status: 'absent' } as const],
  ])('is quiet for %s', (_name, gpu) => {
    expect(check.run(makeContext([], { gpu }))).toEqual([]);
  });
});
