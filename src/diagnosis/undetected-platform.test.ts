import { describe, expect, it } from 'vitest';
import { diagnose } from './index.js';

// fresh-u vllm-5600: a node whose NVIDIA library is missing; vLLM goes on with no platform and fails later.
const CHECKS = [
  'DEBUG 04-10 22:38:54 [__init__.py:52] Checking if CUDA platform is available.',
  'DEBUG 04-10 22:38:54 [__init__.py:76] Exception happens when checking CUDA platform: NVML Shared Library Not Found',
  'DEBUG 04-10 22:38:54 [__init__.py:93] CUDA platform is not available because: NVML Shared Library Not Found',
];
const NONE =
  'INFO 04-10 22:38:54 [__init__.py:243] No platform detected, vLLM is running on UnspecifiedPlatform';
const FAILURE = [
  "INFO 04-10 22:39:05 [config.py:600] This model supports multiple tasks: {'generate'}. Defaulting to 'generate'.",
  'Traceback (most recent call last):',
  '  File "/envs/v/lib/python3.10/site-packages/vllm/config.py", line 751, in verify_async_output_proc',
  '    if not current_platform.is_async_output_supported(self.enforce_eager):',
  '  File "/envs/v/lib/python3.10/site-packages/vllm/platforms/interface.py", line 204, in is_async_output_supported',
  '    raise NotImplementedError',
  'NotImplementedError',
];

describe('a failure after vLLM found no platform', () => {
  it.each([
    [
      'its checks said why: the reason is the cause',
      [...CHECKS, NONE, ...FAILURE],
      'NVML Shared Library Not Found',
    ],
    ['they did not: that no platform was found is', [NONE, ...FAILURE], 'No platform detected'],
    ['a platform was found: the failure is its own', FAILURE, 'is_async_output_supported'],
  ])('%s', (_name, lines, named) => {
    expect(diagnose(lines.join('\n')).rootCause?.message).toContain(named);
  });
});
