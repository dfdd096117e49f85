import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

const torch = {
  name: 'torch',
  version: '2.14.0',
  requires: ['cuda-toolkit[cublas,cudart]==13.0.2'],
};
const toolkit = (cublas: string) => ({
  name: 'cuda-toolkit',
  version: '13.0.2',
  providesExtra: ['cublas', 'cudart'],
  requires: [
    `nvidia-cublas==${cublas}; extra == "cublas"`,
    'nvidia-cuda-runtime==13.0.96; extra == "cudart"',
  ],
});

describe('extra-requirement-unmet', () => {
  it('checks what an extra brings in when an installed dependent asks for it', () => {
    const context = makeContext([
      torch,
      toolkit('13.1.0.3'),
      { name: 'nvidia-cuda-runtime', version: '13.0.96' },
      { name: 'nvidia-cublas', version: '13.0.0.19' },
    ]);
    expect(check.run(context).map((p) => p.detail)).toEqual([
      'cuda-toolkit 13.0.2 has requirement nvidia-cublas==13.1.0.3 (for its extra [cublas], which torch 2.14.0 asks for), but you have nvidia-cublas 13.0.0.19.',
    ]);
  });

  it('is quiet when the extra is satisfied', () => {
    const context = makeContext([
      torch,
      toolkit('13.0.0.19'),
      { name: 'nvidia-cuda-runtime', version: '13.0.96' },
      { name: 'nvidia-cublas', version: '13.0.0.19' },
    ]);
    expect(check.run(context)).toEqual([]);
  });

  it('reports a missing extra requirement', () => {
    const context = makeContext([
      torch,
      toolkit('13.0.0.19'),
      { name: 'nvidia-cublas', version: '13.0.0.19' },
    ]);
    expect(check.run(context).map((p) => p.detail)).toEqual([
      'cuda-toolkit 13.0.2 requires nvidia-cuda-runtime==13.0.96 (for its extra [cudart], which torch 2.14.0 asks for), which is not installed.',
    ]);
  });

  it('warns about an extra the package does not declare', () => {
    const context = makeContext([
      { name: 'sglang', version: '0.5.1', requires: ['flashinfer-python[cu14]==0.6.4'] },
      { name: 'flashinfer-python', version: '0.6.4', providesExtra: ['cu12', 'cu13'] },
    ]);
    expect(check.run(context)).toMatchObject([{ severity: 'warning', title: 'Extra not provided' }]);
  });
});
