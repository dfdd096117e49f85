import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

describe('nvidia-cuda-major-mix', () => {
  it('is an error when one library is installed for two CUDA majors', () => {
    const context = makeContext(
      [
        { name: 'nvidia-nccl-cu12', version: '2.27.3' },
        { name: 'nvidia-nccl-cu13', version: '2.28.3' },
        { name: 'torch', version: '2.10.0' },
      ],
      { torchCuda: '13.0' },
    );
    expect(check.run(context)).toMatchObject([
      {
        severity: 'error',
        packages: ['nvidia-nccl-cu12'],
        fix: 'pip uninstall -y nvidia-nccl-cu12 && pip install nvidia-nccl-cu13==2.28.3 --force-reinstall --no-deps',
      },
    ]);
  });

  it('is a warning for leftovers of another library', () => {
    const context = makeContext([
      { name: 'nvidia-cudnn-cu12', version: '9.10' },
      { name: 'nvidia-nccl-cu13', version: '2.28.3' },
      { name: 'nvidia-cublas-cu13', version: '13.0' },
    ]);
    expect(check.run(context)).toMatchObject([{ severity: 'warning', packages: ['nvidia-cudnn-cu12'] }]);
  });

  it('is quiet for one major', () => {
    expect(
      check.run(
        makeContext([
          { name: 'nvidia-nccl-cu13', version: '2.28.3' },
          { name: 'nvidia-cublas-cu13', version: '13.0' },
        ]),
      ),
    ).toEqual([]);
  });
});
