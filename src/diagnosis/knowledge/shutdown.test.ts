import { describe, expect, it } from 'vitest';
import { isBareStop, isShutdownPhrase, isShutdownShaped, isStopRequest, isStopShaped } from './shutdown.js';

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

describe('isStopShaped', () => {
  it.each([
    [null, 'Received SIGTERM, shutting down', true],
    ['asyncio.CancelledError', '', true],
    // vLLM's signal handler in its later releases.
    [null, '[shutdown] API server: shutdown triggered', true],
    // An engine gone with a stop says nothing of why; one that says why is a death.
    [
      'vllm.v1.engine.exceptions.EngineDeadError',
      'EngineCore encountered an issue. See stack trace (above) for the root cause.',
      true,
    ],
    [
      'vllm.engine.async_llm_engine.AsyncEngineDeadError',
      'Task finished unexpectedly. This should never happen! Please open an issue on GitHub.',
      false,
    ],
    [
      'vllm.engine.async_llm_engine.AsyncEngineDeadError',
      'xinference.core.model ERROR Model actor is out of memory, error: CUDA out of memory. Tried to allocate 318.00 MiB.',
      false,
    ],
    // Worded like an unwinding, yet no stop: after a completed shutdown, the next run's.
    [null, 'NCCL error: remote process exited or there was a network error', false],
    [null, 'connect to 10.99.91.49<58525> returned Connection refused', false],
  ])('%s: %s', (exception, message, shaped) => {
    expect(isStopShaped(exception, message)).toBe(shaped);
  });
});

describe('isStopRequest', () => {
  it.each([
    ['^C', true],
    ['Received Ctrl+C, exiting', true],
    // An instruction naming the keys asks for nothing (llama.cpp's interactive mode, fresh-m llamacpp-3967).
    [' - Press Ctrl+C to interject at any time.', false],
    // SGLang's parent told that a child died, and vLLM's executor ending its own workers: no stop asked
    // (fresh-n sglang-4009, vllm-4154).
    ['SIGQUIT received. signum=None, frame=None. It usually means one child failed.', false],
    ['[shutdown] Executor: workers still running after grace period; sending SIGTERM count=2', false],
    ['[shutdown] Executor: workers still running after SIGTERM; sending SIGKILL count=2', false],
    ['Received SIGTERM. Shutting down.', true],
    // A job script ending its steps after the benchmark (fresh-u trtllm-h5500).
    ['srun: forcing job termination', true],
    // torchrun's agent told to stop (fresh-u sglang-5501); a signal a child died of is not one.
    [
      'W0604 21:27:22.481000 416 torch/distributed/elastic/agent/server/api.py:739] Received 15 death signal, shutting down workers',
      true,
    ],
    ['Received 9 death signal, shutting down workers', false],
    // vLLM's Ray executor says this as it shuts down after a failure too (fresh-u vllm-5601).
    [
      'INFO 04-16 03:18:29 [ray_distributed_executor.py:127] Shutting down Ray distributed executor. If you see error log from logging.cc regarding SIGTERM received, please ignore because this is the expected termination process in Ray.',
      false,
    ],
  ])('%s', (line, asked) => {
    expect(isStopRequest(line)).toBe(asked);
  });
});

describe('isBareStop', () => {
  it.each([
    // vLLM's worker told by its executor to end (test/fixtures/fresh-2026-12-06w/vllm-6004).
    ['SystemExit', '', true],
    ['SystemExit', '1', true],
    ['builtins.SystemExit', 'None', true],
    // An exit that says why is a message of its own.
    ['SystemExit', 'error: model path /models/x does not exist', false],
    // The interrupt is the signal that ended the run (test/fixtures/fresh-2026-12-04f/vllm-1617).
    ['KeyboardInterrupt', '', false],
    [null, '', false],
  ])('%s: %s', (exception, message, bare) => {
    expect(isBareStop(exception, message)).toBe(bare);
  });
});

describe('isShutdownPhrase', () => {
  it.each([
    // vLLM's engine core told to shut down (test/fixtures/fresh-2026-12-06w/vllm-h6256).
    ['(EngineCore pid=1705993) INFO 05-05 20:48:03 [core.py:1384] Shutdown initiated (timeout=0)', true],
    ['INFO 05-05 20:48:03 [core.py:1389] Aborting 65 requests', false],
  ])('%s', (line, phrase) => {
    expect(isShutdownPhrase(line)).toBe(phrase);
  });
});
