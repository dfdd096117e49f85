import { describe, expect, it } from 'vitest';
import { isShutdownShaped } from './shutdown.js';

describe('isShutdownShaped', () => {
  it.each([
    [null, 'Terminating shard 0', true],
    [null, 'Engine core proc EngineCore_0 terminated', true],
    ['asyncio.CancelledError', '', true],
    [null, 'Task was cancelled', true],
    [null, 'Received SIGTERM, shutting down', true],
    // A C++ runtime's end is a crash of its own, whatever word it uses.
    [null, 'libc++abi: terminating due to uncaught exception of type std::length_error: vector', false],
    [null, "terminate called after throwing an instance of 'std::runtime_error'", false],
    [null, 'NCCL watchdog thread terminated with exception: CUDA error: unknown error', false],
    // A GPU's lost context cancels its command stream: a device failure, not a stop.
    [null, 'radv/amdgpu: The CS has been cancelled because the context is lost.', false],
  ])('%s: %s', (exception, message, shaped) => {
    expect(isShutdownShaped(exception, message)).toBe(shaped);
  });
});
