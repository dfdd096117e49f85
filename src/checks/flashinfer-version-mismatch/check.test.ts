import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

const vllm = {
  name: 'vllm',
  version: '0.16.0rc2.dev344+gea5f903f8',
  requires: ['flashinfer-python==0.6.4', 'torch==2.10.0'],
};
const python = { name: 'flashinfer-python', version: '0.6.4' };

describe('flashinfer-version-mismatch', () => {
  it('names flashinfer-cubin, the runtime error and the fix (the incident)', () => {
    const [problem, ...rest] = check.run(
      makeContext([vllm, python, { name: 'flashinfer-cubin', version: '0.6.3' }]),
    );
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({
      severity: 'error',
      fix: 'pip install flashinfer-cubin==0.6.4',
      packages: ['flashinfer-cubin', 'flashinfer-python'],
    });
    expect(problem?.detail).toContain(
      'RuntimeError: flashinfer-cubin version (0.6.3) does not match flashinfer version (0.6.4).',
    );
  });

  it.each([
    [
      'matching cubin and jit-cache',
      [
        { name: 'flashinfer-cubin', version: '0.6.4' },
        { name: 'flashinfer-jit-cache', version: '0.6.4+cu130' },
      ],
      [],
    ],
    ['no companions', [], []],
    ['a stale jit-cache', [{ name: 'flashinfer-jit-cache', version: '0.6.3+cu130' }], ['error']],
    // flashinfer's startswith check passes 0.6.1 against 0.6.10; the kernels are still another release's.
    [
      'a jit-cache passing the prefix check',
      [{ name: 'flashinfer-jit-cache', version: '0.6.4.post1+cu130' }],
      ['warning'],
    ],
  ])('%s', (_name, companions, severities) => {
    const problems = check.run(makeContext([vllm, python, ...companions]));
    expect(problems.map((p) => p.severity)).toEqual(severities);
  });

  it('uses the string comparison the runtime uses: 0.6.8.post1 against 0.6.8-post1 fails', () => {
    const context = makeContext([
      { name: 'flashinfer-python', version: '0.6.8.post1' },
      { name: 'flashinfer-cubin', version: '0.6.8-post1' },
    ]);
    expect(check.run(context)).toHaveLength(1);
  });

  it('prefers the _build_meta.py versions the runtime reads', () => {
    const context = makeContext([python, { name: 'flashinfer-cubin', version: '0.6.4' }], {
      buildMeta: { 'flashinfer-cubin': '0.6.3' },
    });
    expect(check.run(context)[0]?.detail).toContain('flashinfer-cubin 0.6.3');
  });

  it('points past PyPI for cubins newer than 0.6.13, and at the CUDA index for jit-cache', () => {
    const context = makeContext([
      { name: 'flashinfer-python', version: '0.6.16' },
      { name: 'flashinfer-cubin', version: '0.6.13' },
      { name: 'flashinfer-jit-cache', version: '0.6.13+cu129', installer: 'uv' },
    ]);
    expect(check.run(context).map((p) => p.fix)).toEqual([
      'pip install flashinfer-cubin==0.6.16 --extra-index-url https://flashinfer.ai/whl',
      'uv pip install flashinfer-jit-cache==0.6.16+cu129 --extra-index-url https://flashinfer.ai/whl/cu129',
    ]);
  });

  it('is a warning when FLASHINFER_DISABLE_VERSION_CHECK hides the crash', () => {
    const context = makeContext([python, { name: 'flashinfer-cubin', version: '0.6.3' }], {
      env: { FLASHINFER_DISABLE_VERSION_CHECK: '0' },
    });
    expect(check.run(context)).toMatchObject([{ severity: 'warning' }]);
  });
});
