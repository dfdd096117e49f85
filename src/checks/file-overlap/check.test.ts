import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

const lib = 'nvidia/nccl/lib/libnccl.so.2';

describe('file-overlap', () => {
  it.each([
    [
      'same file, different contents',
      { path: lib, hash: 'sha256=a' },
      { path: lib, hash: 'sha256=b' },
      'error',
    ],
    [
      'a console script in bin/',
      { path: '../../../bin/tool', hash: 'sha256=a' },
      { path: '../../../bin/tool', hash: 'sha256=b' },
      'warning',
    ],
  ])('%s → %s', (_name, first, second, severity) => {
    const context = makeContext([
      { name: 'nvidia-nccl-cu12', version: '2.27.3', files: [first] },
      { name: 'nvidia-nccl-cu13', version: '2.28.1', files: [second] },
    ]);
    expect(check.run(context)).toMatchObject([
      { severity, packages: ['nvidia-nccl-cu12', 'nvidia-nccl-cu13'] },
    ]);
  });

  it('is quiet for identical files and for different paths', () => {
    const context = makeContext([
      {
        name: 'a',
        version: '1',
        files: [
          { path: 'nvidia/__init__.py', hash: 'sha256=same' },
          { path: 'a/x.py', hash: 'sha256=1' },
        ],
      },
      {
        name: 'b',
        version: '1',
        files: [
          { path: 'nvidia/__init__.py', hash: 'sha256=same' },
          { path: 'b/x.py', hash: 'sha256=1' },
        ],
      },
    ]);
    expect(check.run(context)).toEqual([]);
  });
});
