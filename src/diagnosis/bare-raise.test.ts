import { describe, expect, it } from 'vitest';
import { saysNothing } from './bare-raise.js';
import { diagnose } from './index.js';

describe('saysNothing', () => {
  it.each<[string, boolean]>([
    ['', true],
    ['   ', true],
    ['get_device_capability() (interface.py:28), called by: if x:', true],
    ['<vllm.config.ModelConfig object at 0x7fec41821900>', true],
    ["'Cannot find `mm_limits` for model=Qwen2-VL'", false],
    ['<unknown>', false],
  ])('%j: %s', (message, nothing) => {
    expect(saysNothing(message)).toBe(nothing);
  });
});

// A KeyError keyed by an object, re-raised with words (vLLM's multimodal registry): the words are the cause.
const CHAINED_KEY_ERROR = [
  'Traceback (most recent call last):',
  '  File "/app/vllm/multimodal/registry.py", line 100, in get_max_tokens',
  '    return self._limits_by_model[model_config]',
  'KeyError: <vllm.config.ModelConfig object at 0x7fec41821900>',
  '',
  'The above exception was the direct cause of the following exception:',
  '',
  'Traceback (most recent call last):',
  '  File "/app/vllm/multimodal/registry.py", line 104, in get_max_tokens',
  '    raise KeyError(msg) from exc',
  "KeyError: 'Cannot find `mm_limits` for model=Qwen2-VL-7B-Instruct. Did you forget to register the model?'",
];

describe('a chain whose first exception names only an object', () => {
  it('blames the exception that says what was looked for', () => {
    expect(diagnose(CHAINED_KEY_ERROR.join('\n')).rootCause?.message).toMatch(/Cannot find `mm_limits`/);
  });
});
