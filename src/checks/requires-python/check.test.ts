import { describe, expect, it } from 'vitest';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

describe('requires-python', () => {
  it.each([
    ['>=3.10', '3.11.7', 0],
    ['<3.11,>=3.9', '3.11.7', 1],
    ['>=3.12', '3.11.7', 1],
    ['>=3.11.4', '3.11', 0],
    ['>=3.12', '3.11', 1],
    ['', '3.11.7', 0],
  ])('Requires-Python %j on %s → %i finding(s)', (spec, python, count) => {
    const context = makeContext([{ name: 'vllm', version: '0.11.2', requiresPython: spec || undefined }]);
    context.environment.pythonVersion = python;
    expect(check.run(context)).toHaveLength(count);
  });
});
