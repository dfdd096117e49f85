import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import { gpuReading } from '../../../test/check/helpers/gpu-readings.js';
import check from './check.js';
import { findDriverCuda } from './driver-cuda.js';

describe('findDriverCuda', () => {
  it.each([
    ['570.133.20', '12.8', false],
    ['580.65.06', '13.0', false],
    ['575.57.08', '12.9', false],
    ['535.104.05', '12.2', false],
    ['600.10', '13.2', true],
  ])('driver %s runs CUDA %s', (driver, cuda, orNewer) => {
    expect(findDriverCuda(driver)).toEqual({ cuda, orNewer });
  });
});

describe('driver-too-old', () => {
  it.each([
    ['torch cu130 on a 12.8 driver', '13.0', '570.133.20', ['error']],
    ['torch cu129 on a 12.8 driver', '12.9', '570.133.20', ['warning']],
    ['torch cu128 on a 13.0 driver', '12.8', '580.65.06', []],
    ['a CPU torch', null, '570.133.20', []],
  ])('%s', (_name, torchCuda, driver, severities) => {
    const context = makeContext([{ name: 'torch', version: '2.10.0' }], {
      torchCuda,
      gpu: gpuReading({ driverVersion: driver }),
    });
    expect(check.run(context).map((p) => p.severity)).toEqual(severities);
  });

  it('quotes the version torch reports', () => {
    const context = makeContext([{ name: 'torch', version: '2.10.0+cu130' }], {
      gpu: gpuReading({ driverVersion: '570.133.20' }),
    });
    expect(check.run(context)[0]?.detail).toContain('found version 12080');
  });
});
