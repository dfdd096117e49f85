import { satisfies, valid } from '@renovatebot/pep440';
import { describe, expect, it } from 'vitest';
import {
  comparePlainReleases,
  compareVersions,
  cudaVariantOf,
  isVersion,
  localLabel,
  publicVersion,
  samePublicVersion,
  satisfiesSpecifier,
} from './pep440.js';

describe('satisfiesSpecifier', () => {
  it.each([
    // The gaps closed over @renovatebot/pep440.
    ['2.10.0+cu130', '==2.10.0', true],
    ['2.9.0+cu128', '==2.9.0+cu128', true],
    ['2.9.0+cu126', '==2.9.0+cu128', false],
    ['2.9.0+cu126', '!=2.9.0+cu128', true],
    ['2.9.0+CU128', '==2.9.0+cu128', true],
    ['0.16.0rc2.dev344+gea5f903f8', '>=0.15', true],
    ['0.16.0rc2.dev344+gea5f903f8', '<0.16', false],
    ['2.11.0.dev20260104+cu128', '>=2.10', true],
    ['1.0', '(>=1.0)', true],
    ['1.0', '(>=1.0, <2)', true],
    // PEP 440 as packaging has it.
    ['2.9.0+cu128', '>2.9.0', false],
    ['5.0.0rc1', '<5', false],
    ['0.6.8-post1', '==0.6.8.post1', true],
    ['2.9.0+cu128', '==2.9.*', true],
    ['4.57.1', '>= 4.56.0, < 5', true],
    ['5.0.0', '>= 4.56.0, < 5', false],
    ['3.8.1', '~=3.8.0', true],
    ['3.9.0', '~=3.8.0', false],
    ['1.0', '===1.0', true],
    ['1.0', '', true],
  ])('%s in %s → %s', (version, specifier, expected) => {
    expect(satisfiesSpecifier(version, specifier)).toBe(expected);
  });

  // Plain releases are compared without the library; on them the answer must be the library's.
  it('answers as the library does between plain releases', () => {
    const releases = [
      '0',
      '1',
      '1.0',
      '1.0.0',
      '01.2',
      '1.2',
      '1.10',
      '1.9.9',
      '2',
      '2.0.1',
      '10.0',
      '1.2.0.0.1',
    ];
    const disagreements: string[] = [];
    for (const version of releases)
      for (const target of releases)
        for (const operator of ['==', '!=', '<=', '>=', '<', '>']) {
          const library = satisfies(version, `${operator}${target}`, { prereleases: true });
          if (satisfiesSpecifier(version, `${operator}${target}`) !== library)
            disagreements.push(`${version} ${operator}${target}`);
        }
    expect(disagreements).toEqual([]);
  });

  it.each([
    ['1.10', '1.9', 1],
    ['1.0', '1', 0],
    ['1', '1.0.1', -1],
    ['1.0rc1', '1.0', null],
    ['1.0+cu128', '1.0', null],
    ['1!1.0', '1.0', null],
  ])('comparePlainReleases(%s, %s) → %s', (a, b, order) => {
    expect(comparePlainReleases(a, b)).toBe(order);
  });

  it('answers null for a version that is not PEP 440', () => {
    expect(satisfiesSpecifier('not-a-version', '>=1')).toBeNull();
  });
});

describe('isVersion', () => {
  // Plain releases skip the library's parse; every answer must still be the library's.
  it.each([
    '1',
    '2.7.1',
    '01.002',
    '0.0.31',
    '1..2',
    '1.',
    '.1',
    '2.7.1+cu128',
    '1.0rc1',
    'v1.0',
    ' 1.0',
    '1.0 ',
    '',
    'not-a-version',
    '1234567890123456.1',
  ])('%j as the library says', (text) => {
    expect(isVersion(text)).toBe(valid(text) !== null);
  });
});

describe('version parts', () => {
  it.each([
    ['2.10.0+cu130', '2.10.0', 'cu130'],
    ['0.6.4', '0.6.4', null],
  ])('%s → public %s, local %s', (version, publicPart, local) => {
    expect(publicVersion(version)).toBe(publicPart);
    expect(localLabel(version)).toBe(local);
  });

  it.each([
    ['2.10.0+cu130', { label: 'cu130', cuda: '13.0' }],
    ['2.9.0+cu128', { label: 'cu128', cuda: '12.8' }],
    ['2.4.0+cu118', { label: 'cu118', cuda: '11.8' }],
    ['2.9.0+cpu', { label: 'cpu', cuda: null }],
    ['2.9.0+rocm6.4', { label: 'rocm6.4', cuda: null }],
    ['0.16.0+gea5f903f8', null],
    ['2.9.0', null],
  ])('CUDA variant of %s', (version, expected) => {
    expect(cudaVariantOf(version)).toEqual(expected);
  });

  it.each([
    ['2.10.0', '2.9.0', 1],
    ['0.16.0rc2', '0.16.0', -1],
    ['1.0', '1.0.0', 0],
  ])('compares %s with %s', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });

  it('treats 0.6.4 and 0.6.4+cu130 as the same public version', () => {
    expect(samePublicVersion('0.6.4', '0.6.4+cu130')).toBe(true);
    expect(samePublicVersion('0.6.3', '0.6.4+cu130')).toBe(false);
  });
});
