import { describe, expect, it } from 'vitest';
import { isWrapper } from './wrappers.js';

// Lines that only point at a cause printed elsewhere: they never win while anything more specific exists.
describe('what only points elsewhere', () => {
  it.each([
    ['Exception: Server process exited with code -9. Check server logs for errors.', true],
    ['Rank 0 scheduler is dead. Please check if there are relevant logs.', true],
    ['setUpClass (__main__.TestVlmGdnEnabledMultimodal)', true],
    ['ERROR: test_throughput (__main__.Test_DeepSeek_R1_W8A8_2P1D.test_throughput)', true],
    ['Engine core initialization failed. See root cause above. Failed core proc(s): {}', true],
    ['ValueError: max_model_len (131072) is larger than the maximum number of tokens (8192)', false],
    [
      'ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ',
      true,
    ],
    ['RuntimeError: Error raised in subprocess:', true],
    ['SIGQUIT received. signum=None, frame=None. It usually means one child failed.', true],
    ["torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:", true],
    ['Check failed: r->session.start_flag Mismatch', false],
    [
      'ray.exceptions.RayTaskError: ray::ActorA.method_a() (pid=245071, ip=192.168.111.50, actor_id=33c4d273)',
      true,
    ],
    ['ray.exceptions.RayTaskError(ValueError): boom', false],
    // A request told the engine stopped answering (test/fixtures/fresh-2026-12-06w/vllm-6056), not the client's repr.
    ['TimeoutError: No heartbeat received from MQLLMEngine', true],
    ["TimeoutError('No heartbeat received from MQLLMEngine')", false],
    // An actor whose constructor raised (test/fixtures/fresh-2026-12-06w/vllm-6110): its own traceback says what.
    [
      'ray.exceptions.ActorDiedError: The actor died because of an error raised in its creation task, ray::AsyncVLLMInferenceEngine.__init__() (pid=84217, ip=172.22.0.2)',
      true,
    ],
    [
      'ray.exceptions.RayTaskError(UserCodeException): ray::MapBatches(LLM)() (pid=210888, ip=172.22.197.6, actor_id=e583)',
      true,
    ],
    ['ray.exceptions.UserCodeException', true],
    // A part that did not start, with no why (fresh-u sglang-5454, after the router's panic), and with one.
    ['RuntimeError: Failed to start router', true],
    ['Failed to start router: Address already in use (os error 98)', false],
    // gloo's read from a peer that went away (fresh-u sglang-5650): the peer's own lines say why.
    [
      'RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:535] Read error [192.168.0.184]:6858: Connection reset by peer',
      true,
    ],
    ['srun: error: node-037-04: task 0: Exited with exit code 1', true],
    ['srun: error: Unable to allocate resources: Invalid account or account/partition combination', false],
    ['Server error: error trying to connect: Connection refused (os error 111)', true],
    ['error: creating server: Internal - failed to load all models', true],
    [
      'RuntimeError: Error happened when batch testing peer-to-peer access from (0, 0, 1, 1) to (0, 1, 0, 1):',
      true,
    ],
    [
      'Failed to pickle inputs of failed execution: CUDA error: an illegal memory access was encountered',
      true,
    ],
    ['ValueError: Failed to create llama_context', true],
    ['ValueError: Failed to load model from file: /models/llama-2-7b.Q4_0.gguf', true],
    [
      "ERROR worker.py:438 -- Unhandled error (suppress with 'RAY_IGNORE_UNHANDLED_ERRORS=1'): ray::RayWorkerWrapper.warmup() (pid=2432)",
      true,
    ],
    [
      "ncclUnhandledCudaError: Call to CUDA function failed.\nLast error:\nCuda failure 700 'an illegal memory access was encountered'",
      true,
    ],
    ["NCCL WARN Cuda failure 700 'an illegal memory access was encountered'", false],
    // A web framework's answer to its client (fresh-x trtllm-6358): the part that failed logs why.
    ['fastapi.exceptions.HTTPException: 500: Briton error during inference', true],
    ['fastapi.exceptions.HTTPException: 404: Model not found', false],
    // torch's relays of NCCL's class (fresh-y sglang-6809, vllm-6700): NCCL's `Last error:` says which.
    [
      'torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/NCCLUtils.cpp:230, remote process exited or there was a network error, NCCL version 2.27.5',
      true,
    ],
    [
      'torch.distributed.DistBackendError: NCCL error in: /root/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, internal error - please report this issue to the NCCL developers, NCCL version 2.18.1',
      true,
    ],
    ['socketProgress: Connection closed by remote peer ac041-ib.cluster<54993>', true],
    // Ollama's runner, after llama.cpp refused the context (fresh-y ollama-6907).
    ['panic: unable to create llama context', true],
  ])('%s', (text, wrapper) => {
    expect(isWrapper(text)).toBe(wrapper);
  });
});
