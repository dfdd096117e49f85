import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import {
  qualifyUnitName,
  validateContainerName,
  validateKubeLabel,
  validatePodName,
  validateUnitName,
} from '../../src/sources/validate-names.js';

function accepts(validate: (name: string) => void, name: string): boolean {
  try {
    validate(name);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return false;
  }
}

describe('unit names', () => {
  it.each([
    ['vllm-kimi-k25', true],
    ['vllm-kimi-k25.service', true],
    ['vllm@gpu0.service', true],
    ['dev-disk-by\\x2duuid.swap', true],
    ['user:1000_x.target', true],
    ['a'.repeat(256), true],
    ['a'.repeat(257), false],
    ['', false],
    ['vllm server', false],
    ['vllm;reboot', false],
    ['vllm-*', false],
    ['$(id)', false],
  ])('%s → %s', (name, ok) => expect(accepts(validateUnitName, name)).toBe(ok));

  it.each([
    ['vllm', 'vllm.service'],
    ['vllm.service', 'vllm.service'],
    ['vllm.timer', 'vllm.timer'],
    ['model.v2', 'model.v2.service'],
    ['vllm@gpu0', 'vllm@gpu0.service'],
  ])('%s means %s', (name, full) => expect(qualifyUnitName(name)).toBe(full));
});

describe('container names', () => {
  it.each([
    ['vllm', true],
    ['vllm-openai_1', true],
    ['my.app-2', true],
    ['3f2a9c1b7d4e', true],
    ['-rm', false],
    ['_x', false],
    ['a/b', false],
    ['', false],
    ['a b', false],
  ])('%s → %s', (name, ok) => expect(accepts(validateContainerName, name)).toBe(ok));
});

describe('kubernetes names', () => {
  it.each([
    ['vllm-0', true],
    ['vllm.engine-7f9c', true],
    ['a', true],
    ['Vllm', false],
    ['-vllm', false],
    ['vllm-', false],
    ['vllm_0', false],
    ['pod/vllm', false],
    ['a'.repeat(254), false],
  ])('pod %s → %s', (name, ok) => expect(accepts(validatePodName, name)).toBe(ok));

  it.each([
    ['llm', true],
    ['team-a', true],
    ['a.b', false],
    ['--all', false],
    ['a'.repeat(64), false],
  ])('namespace %s → %s', (name, ok) =>
    expect(accepts((n) => validateKubeLabel('namespace', n), name)).toBe(ok),
  );
});
