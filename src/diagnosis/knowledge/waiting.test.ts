import { describe, expect, it } from 'vitest';
import { isWaitingError } from './waiting.js';

describe('what the waiting side raises', () => {
  it.each([
    ['TimeoutError', 'timed out', true],
    ['requests.exceptions.ReadTimeout', 'HTTPConnectionPool: Read timed out.', true],
    ['RuntimeError', 'Server http://127.0.0.1:6688/health failed to start in 3600s', true],
    ['Exception', 'Server failed to start within the timeout period.', true],
    ['RuntimeError', 'Failed to wait for all nodes to be ready', true],
    ['Timeout', 'Not all nodes are ready after 3600 seconds', true],
    ['RuntimeError', 'CUDA error: out of memory', false],
    ['ValueError', 'The model is not ready for serving: max_model_len 4096 is too large', false],
    [null, 'Server failed to start within the timeout period.', false],
  ])('%s: %s', (exception, message, waiting) => {
    expect(isWaitingError(exception, message)).toBe(waiting);
  });
});
