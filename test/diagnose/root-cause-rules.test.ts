import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/index.js';

const pick = (log: string): string | null => {
  const rc = diagnose(log).rootCause;
  return rc ? `${rc.exception ?? ''}: ${rc.message.split('\n')[0] ?? ''}` : null;
};

describe('choosing the root cause', () => {
  it.each([
    [
      'a wrapper never wins over the cause it points at',
      [
        '(Worker_TP0 pid=1) ERROR 01-01 00:00:00 [m.py:1] WorkerProc failed to start.',
        '(Worker_TP0 pid=1) ERROR 01-01 00:00:00 [m.py:1] Traceback (most recent call last):',
        '(Worker_TP0 pid=1) ERROR 01-01 00:00:00 [m.py:1]   File "/v/vllm/worker.py", line 1, in load',
        '(Worker_TP0 pid=1) ERROR 01-01 00:00:00 [m.py:1] ValueError: bad config',
        '(APIServer pid=2) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
      ],
      'ValueError: bad config',
    ],
    [
      'the first exception of a chain is the cause',
      [
        'Traceback (most recent call last):',
        '  File "/a.py", line 1, in f',
        "OSError: [Errno 2] No such file: 'model.safetensors'",
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        'Traceback (most recent call last):',
        '  File "/b.py", line 2, in g',
        'RuntimeError: loading failed',
      ],
      "OSError: [Errno 2] No such file: 'model.safetensors'",
    ],
    [
      'the compiler line behind "Ninja build failed" is the cause',
      [
        'Traceback (most recent call last):',
        '  File "/a.py", line 1, in f',
        'RuntimeError: Ninja build failed. Ninja output:',
        'fatal error: Python.h: No such file or directory',
      ],
      'RuntimeError: fatal error: Python.h: No such file or directory',
    ],
    [
      'what() of a C++ terminate',
      [
        "terminate called after throwing an instance of 'std::runtime_error'",
        '  what():  [TM][ERROR] CUDA runtime error: out of memory /x/allocator.cc:49',
        'Aborted (core dumped)',
      ],
      ': [TM][ERROR] CUDA runtime error: out of memory /x/allocator.cc:49',
    ],
    [
      'a warning that carries an exception counts',
      [
        "WARNING 06-13 11:42:20 _custom_ops.py:11] Failed to import from vllm._C with ImportError('/x/_C.abi3.so: undefined symbol: _ZN3c10')",
      ],
      "ImportError: Failed to import from vllm._C with ImportError('/x/_C.abi3.so: undefined symbol: _ZN3c10')",
    ],
    [
      'a message socket closed under its reader is the crash before it, not a cause',
      [
        "Failed: Cuda error /workspace/csrc/quickreduce.cuh:88 'operation not permitted'",
        'Traceback (most recent call last):',
        '  File "/v/zmq/_future.py", line 400, in poll',
        '    raise _zmq.ZMQError(_zmq.ENOTSUP)',
        'zmq.error.ZMQError: Operation not supported',
      ],
      ": Failed: Cuda error /workspace/csrc/quickreduce.cuh:88 'operation not permitted'",
    ],
    [
      "a message socket closed under its reader says less than the other end's death (fresh-q vllm-4700)",
      [
        'Traceback (most recent call last):',
        '  File "/v/zmq/_future.py", line 400, in poll',
        '    raise _zmq.ZMQError(_zmq.ENOTSUP)',
        'zmq.error.ZMQError: Operation not supported',
        'Traceback (most recent call last):',
        '  File "/v/vllm/entrypoints/openai/api_server.py", line 230, in build_async_engine_client_from_engine_args',
        '    raise RuntimeError(',
        'RuntimeError: Engine process failed to start. See stack trace for the root cause.',
      ],
      'RuntimeError: Engine process failed to start. See stack trace for the root cause.',
    ],
    [
      "work cancelled as the engine unwinds after a worker's death is not a cause (fresh-s vllm-4957)",
      [
        "terminate called after throwing an instance of 'c10::Error'",
        '  what():  The graph should be registered to the state',
        '(EngineCore pid=639446) ERROR 06-02 21:27:56 [multiproc_executor.py:261] Worker proc VllmWorker-4 died unexpectedly, shutting down executor.',
        '(EngineCore pid=639446) ERROR 06-02 21:27:57 [core.py:1165] EngineCore failed to start.',
        '(EngineCore pid=639446) ERROR 06-02 21:27:57 [core.py:1165] Traceback (most recent call last):',
        '(EngineCore pid=639446) ERROR 06-02 21:27:57 [core.py:1165]   File "/v/vllm/v1/executor/multiproc_executor.py", line 401, in get_response',
        '(EngineCore pid=639446) ERROR 06-02 21:27:57 [core.py:1165]     raise RuntimeError("cancelled")',
        '(EngineCore pid=639446) ERROR 06-02 21:27:57 [core.py:1165] RuntimeError: cancelled',
      ],
      ': The graph should be registered to the state',
    ],
    [
      "the CUDA driver's result code after readiness is a crash (fresh-s sglang-4908)",
      [
        '[2026-02-09 13:42:50] INFO:     The server is fired up and ready to roll!',
        '[2026-02-09 13:43:02] INFO:     127.0.0.1:52370 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
        '(SGLangHttpServer pid=250977) [torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/utils.h func=cu_mem_create line=194',
        '(WorkerDict pid=209740) WARNING:2025-11-28 16:00:45,396:Async request to resume_memory_occupation timed out (attempt 1)',
      ],
      ': [torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/utils.h func=cu_mem_create line=194',
    ],
    [
      "gloo's socket to a peer that went away says less than the death after it",
      [
        'Traceback (most recent call last):',
        '  File "/v/torch/distributed/distributed_c10d.py", line 4159, in barrier',
        'RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.0.0.2]:22934',
        'Traceback (most recent call last):',
        '  File "/v/vllm/entrypoints/openai/api_server.py", line 230, in build_async_engine_client_from_engine_args',
        'RuntimeError: Engine process failed to start. See stack trace for the root cause.',
      ],
      'RuntimeError: Engine process failed to start. See stack trace for the root cause.',
    ],
    [
      'uvicorn port in use is an OSError',
      [
        'INFO:     Started server process [1]',
        "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use",
      ],
      "OSError: [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use",
    ],
    [
      'a traceback kept in one JSON string with escaped newlines',
      [
        '{"timestamp":"2023-06-01T00:00:00Z","level":"ERROR","fields":{"message":"Shard complete standard error output:\\n\\nTraceback (most recent call last):\\n  File \\"/opt/tgi/server.py\\", line 1, in serve\\n    load()\\nRuntimeError: weight lm_head.weight does not exist\\n"},"target":"text_generation_launcher"}',
        'Error: ShardCannotStart',
      ],
      'RuntimeError: weight lm_head.weight does not exist',
    ],
    [
      'a failed request after readiness is not a crash',
      [
        'INFO:     Application startup complete.',
        "ERROR 03-18 09:02:03 [serving_chat.py:133] Error with model object='error' message='The model `x` does not exist.' code=404",
      ],
      null,
    ],
    [
      'benign warnings alone are no failure',
      [
        'WARNING 01-01 00:00:00 [symm_mem.py:1] SymmMemCommunicator: Device capability 12.0 not supported, communicator is not available.',
        '[rank0]:[W816 11:45:16.4757 ProcessGroupNCCL.cpp:1479] Warning: WARNING: destroy_process_group() was not called before program exit',
        '/x/y.py:1: FutureWarning: something is deprecated',
      ],
      null,
    ],
    [
      "Python's resource tracker failing as the program exits is no failure of the server (fresh-y vllm-h6802)",
      [
        '(APIServer pid=14033) INFO:     Application startup complete.',
        '(APIServer pid=14033) INFO:     127.0.0.1:35374 - "POST /v1/completions HTTP/1.1" 200 OK',
        '(EngineCore_DP0 pid=14297) /usr/lib/python3.12/multiprocessing/resource_tracker.py:123: UserWarning: resource_tracker: process died unexpectedly, relaunching.  Some resources might leak.',
        "(EngineCore_DP0 pid=14297)   warnings.warn('resource_tracker: process died unexpectedly, '",
        'Traceback (most recent call last):',
        '  File "/usr/lib/python3.12/multiprocessing/resource_tracker.py", line 239, in main',
        '    cache[rtype].remove(name)',
        "KeyError: '/mp-h1ustgxb'",
      ],
      null,
    ],
    [
      "a signal's death names nothing: the error its process logged just before says what (fresh-y llamacpp-6906)",
      [
        'parse: error parsing grammar: expecting newline or end at \\"route\\"',
        'llama_sampling_init: failed to parse grammar',
        'slot 0 is processing [task id: 8]',
        "fish: Job 1, './server -m \"/Users/behnam/Down…' terminated by signal SIGSEGV (Address boundary error)",
      ],
      ': parse: error parsing grammar: expecting newline or end at \\"route\\"',
    ],
    [
      "an exception that carries only its library's code is explained by the library's error line (fresh-x sglang-6401)",
      [
        'E0608 10:49:50.145396     474 ucx_utils.cpp:592] VRAM memory is detected as host by UCX. UCX is likely not configured with CUDA support.',
        '[2026-06-08 10:49:50 DP0 TP0] Scheduler hit an exception: Traceback (most recent call last):',
        '  File "/sgl/sglang/srt/disaggregation/nixl/conn.py", line 236, in register_buffer_to_engine',
        '    self.kv_descs = self.agent.register_memory(kv_addrs, "VRAM")',
        'nixl_cu13._bindings.nixlBackendError: NIXL_ERR_BACKEND',
      ],
      ': VRAM memory is detected as host by UCX. UCX is likely not configured with CUDA support.',
    ],
    [
      'alone, the code is the cause, and it says more than a wrapper quoting it',
      [
        '(VllmWorker rank=0 pid=1) ERROR 07-08 23:07:44 [multiproc_executor.py:522] Traceback (most recent call last):',
        '(VllmWorker rank=0 pid=1) ERROR 07-08 23:07:44 [multiproc_executor.py:522]   File "/v/nixl_connector.py", line 9, in add_remote_agent',
        '(VllmWorker rank=0 pid=1) ERROR 07-08 23:07:44 [multiproc_executor.py:522] nixl._bindings.nixlInvalidParamError: NIXL_ERR_INVALID_PARAM',
        "ERROR 07-08 23:07:45 [core.py:521] RuntimeError: Worker failed with error 'NIXL_ERR_INVALID_PARAM', please check the stack trace above for the root cause",
      ],
      'nixl._bindings.nixlInvalidParamError: NIXL_ERR_INVALID_PARAM',
    ],
    [
      "a web framework's HTTP 500 answer is not the failure it answers for (fresh-x trtllm-6358)",
      [
        'Traceback (most recent call last):',
        '  File "/briton/error_handling.py", line 32, in grpc_error_handling',
        '    raise HTTPException(status_code=500, detail="Briton error during inference")',
        'fastapi.exceptions.HTTPException: 500: Briton error during inference',
        'E0624 21:46:14.504165488     296 briton.cpp:205] Executor requestId=235 failed with error: [TensorRT-LLM][ERROR] Assertion failed: decoderFinishedEvent must be nullopt.',
      ],
      ': Executor requestId=235 failed with error: [TensorRT-LLM][ERROR] Assertion failed: decoderFinishedEvent must be nullopt.',
    ],
    [
      "a bare print just before a cut traceback's header is its process's error (fresh-x sglang-6400)",
      [
        '[2025-04-01 18:12:47 TP0] Load weight begin. avail mem=23.43 GB',
        'Failed to instantiate MiniCPMV: The input size is not aligned with the quantized weight shape.',
        '[2025-04-01 18:12:48 TP0] Scheduler hit an exception: Traceback (most recent call last):',
      ],
      ': Failed to instantiate MiniCPMV: The input size is not aligned with the quantized weight shape.',
    ],
  ])('%s', (_name, lines, expected) => {
    expect(pick(lines.join('\n'))).toBe(expected);
  });

  it('diagnoses only the last failed start when systemd restarted the unit', () => {
    const log = [
      'Jan 01 00:00:00 h systemd[1]: Starting vllm.service - vLLM...',
      'Jan 01 00:00:01 h vllm[10]: ValueError: first failure',
      'Jan 01 00:00:02 h systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE',
      'Jan 01 00:00:03 h systemd[1]: vllm.service: Scheduled restart job, restart counter is at 1.',
      'Jan 01 00:00:04 h systemd[1]: Starting vllm.service - vLLM...',
      'Jan 01 00:00:05 h vllm[11]: KeyError: second failure',
      'Jan 01 00:00:06 h systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE',
    ].join('\n');
    const d = diagnose(log);
    expect(d.rootCause?.exception).toBe('KeyError');
    expect(d.service).toEqual({
      unit: 'vllm.service',
      starts: 2,
      failedStarts: 2,
      restartLoop: true,
      lastExit: 'code=exited, status=1/FAILURE',
    });
  });

  it('counts identical failures across processes as one group', () => {
    const lines = [0, 1, 2, 3].map(
      (n) =>
        `(Worker_TP${n} pid=${n}) ERROR 01-01 00:00:00 [m.py:1] RuntimeError: CUDA error: out of memory on device ${n} at 0x7f${n}`,
    );
    const d = diagnose(lines.join('\n'));
    expect(d.groups).toHaveLength(1);
    expect(d.groups[0]).toMatchObject({
      count: 4,
      processes: ['Worker_TP0', 'Worker_TP1', 'Worker_TP2', 'Worker_TP3'],
    });
  });
});

describe('a device assert printed by every thread, then the exception that carried it up', () => {
  // fresh-y vllm-6801: 320 bare assert lines, the engine's pointer, then its AcceleratorError traceback.
  it('is named where the kernel asserted, however many copies came between', () => {
    const assert = (thread: number): string =>
      `/root/.cache/vllm/inductor_cache/zf/czfd.py:95: unknown: block: [3,0,0], thread: [${thread},0,0] Assertion \`index out of bounds: 0 <= tl.broadcast_to(tmp49, [XBLOCK]) < 2048\` failed.`;
    const tag = '(EngineCore pid=33370) ERROR 07-14 23:48:38 [core.py:1233]';
    const log = [
      '(APIServer pid=1) INFO:     Application startup complete.',
      ...Array.from({ length: 320 }, (_, i) => assert(i % 128)),
      `${tag} EngineCore encountered a fatal error.`,
      `${tag} Traceback (most recent call last):`,
      `${tag}   File "/v/vllm/v1/worker/gpu/buffer_utils.py", line 80, in apply_write`,
      `${tag}     write_contents = async_tensor_h2d(`,
      `${tag} torch.AcceleratorError: CUDA error: device-side assert triggered`,
    ].join('\n');
    const rc = diagnose(log).rootCause;
    expect(rc?.lineNumber).toBe(2);
    expect(rc?.line).toContain('index out of bounds');
  });
});

describe('a server that was stopped', () => {
  it('is not a failure when Ctrl-C unwinds it', () => {
    const log = [
      'INFO:     Application startup complete.',
      'INFO:     Shutting down',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.12/asyncio/runners.py", line 118, in run',
      'KeyboardInterrupt',
      'asyncio.exceptions.CancelledError',
    ].join('\n');
    expect(diagnose(log).verdict).toBe('no-failure');
  });
});

describe('after a stop, before the shutdown says it is complete', () => {
  // The end of the healthy fresh-o vllm-h4301: a stop, and the errors its unwinding logs.
  const STOPPED_VLLM = [
    '(APIServer pid=1) INFO:     Application startup complete.',
    '(APIServer pid=1) INFO 07-25 15:15:02 [launcher.py:100] [shutdown] API server: shutdown triggered',
    '(APIServer pid=1) ERROR 07-25 15:15:03 [async_llm.py:704] AsyncLLM output_handler failed.',
    '(APIServer pid=1) ERROR 07-25 15:15:03 [async_llm.py:704] Traceback (most recent call last):',
    '(APIServer pid=1) ERROR 07-25 15:15:03 [async_llm.py:704]   File "/v/vllm/v1/engine/core_client.py", line 1061, in get_output_async',
    '(APIServer pid=1) ERROR 07-25 15:15:03 [async_llm.py:704]     raise self._format_exception(outputs) from None',
    '(APIServer pid=1) ERROR 07-25 15:15:03 [async_llm.py:704] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.',
    '(APIServer pid=1) INFO 07-25 15:15:04 [launcher.py:149] [shutdown] API server: shutting down FastAPI HTTP server',
  ];

  it("the engine's death that says why is the next run's, and the stop's own errors stay the stop's", () => {
    // fresh-o vllm-4251 after it, with no line between them.
    const log = [
      ...STOPPED_VLLM,
      'Traceback (most recent call last):',
      '  File "/x/lib/python3.10/site-packages/vllm/engine/async_llm_engine.py", line 70, in _log_task_completion',
      '    raise AsyncEngineDeadError(',
      'vllm.engine.async_llm_engine.AsyncEngineDeadError: Task finished unexpectedly. This should never happen! Please open an issue on GitHub. See stack trace above for the actual cause.',
      '2025-03-31 15:19:44,286 xinference.core.model 3187124 ERROR    Model actor is out of memory, model id: Qwen2.5-VL-32B, error: CUDA out of memory. Tried to allocate 318.00 MiB.',
    ].join('\n');
    const rc = diagnose(log).rootCause;
    expect(rc?.message).toContain('Model actor is out of memory');
  });

  it("an error the stop's unwinding logged is not moved into the next run's failure", () => {
    // fresh-o vllm-4356 after it: the shutdown's `AsyncLLM output_handler failed.` was blamed.
    const log = [
      ...STOPPED_VLLM,
      '(EngineCore_DP0 pid=43418) ERROR 10-23 09:29:42 [multiproc_executor.py:154] Worker proc VllmWorker-0 died unexpectedly, shutting down executor.',
      '(EngineCore_DP0 pid=43418) Traceback (most recent call last):',
      '(EngineCore_DP0 pid=43418)   File "/x/lib/python3.12/multiprocessing/process.py", line 314, in _bootstrap',
      '(EngineCore_DP0 pid=43418)     self.run()',
    ].join('\n');
    expect(pick(log)).not.toBe(': AsyncLLM output_handler failed.');
    expect(diagnose(log).rootCause?.lineNumber).toBeGreaterThan(STOPPED_VLLM.length);
  });
});

describe('a stop asked while a traceback lies open and forgotten', () => {
  it("is a stop: a warning's traceback with no exception line ended long before it", () => {
    // fresh-n vllm-h4100: torch.compile's `Original traceback:` in a warning never gets an exception line.
    const served = Array.from(
      { length: 30 },
      (_, i) => `(APIServer pid=1) INFO:     127.0.0.1:4${i} - "POST /v1/completions HTTP/1.1" 200 OK`,
    );
    const log = [
      '(APIServer pid=1) INFO 08-01 03:39:45 [api_server.py:1] vLLM API server version 0.11.0',
      '(Worker_TP1 pid=3) WARNING 08-01 03:43:03 [decorators.py:321] Compiling model again due to a load failure',
      '(Worker_TP1 pid=3) WARNING 08-01 03:43:03 [decorators.py:321] Original traceback:',
      '(Worker_TP1 pid=3) WARNING 08-01 03:43:03 [decorators.py:321]   File "/v/vllm/model_executor/models/deepseek_v2.py", line 1498, in forward',
      '(Worker_TP1 pid=3) WARNING 08-01 03:43:03 [decorators.py:321]     hidden_states, residual = layer(',
      '(APIServer pid=1) INFO:     Application startup complete.',
      ...served,
      '(APIServer pid=1) INFO 08-01 03:48:16 [launcher.py:100] [shutdown] API server: shutdown triggered',
      '(APIServer pid=1) ERROR 08-01 03:48:16 [async_llm.py:704] AsyncLLM output_handler failed.',
      '(APIServer pid=1) ERROR 08-01 03:48:16 [async_llm.py:704] Traceback (most recent call last):',
      '(APIServer pid=1) ERROR 08-01 03:48:16 [async_llm.py:704]   File "/v/vllm/v1/engine/async_llm.py", line 660, in output_handler',
      '(APIServer pid=1) ERROR 08-01 03:48:16 [async_llm.py:704] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.',
    ].join('\n');
    expect(diagnose(log).verdict).toBe('no-failure');
  });
});

describe('lines that say less than they seem', () => {
  it.each([
    [
      "SGLang's watchdog trying py-spy on a hung process: the timeout is the news",
      [
        '[2025-06-26 07:25:31 DP4 TP4] Pyspy failed to dump PID 113688. Error: /bin/bash: line 1: py-spy: command not found',
        '',
        '[2025-06-26 07:25:31 DP4 TP4] Watchdog timeout (self.watchdog_timeout=300)',
      ],
      ': Watchdog timeout (self.watchdog_timeout=300)',
    ],
    [
      "a deprecation notice, a memory profile's report and a failed step's dump header: the engine's death is all there is",
      [
        'WARNING 01-16 18:10:50 arg_utils.py:1075] [DEPRECATED] Block manager v1 has been removed, and setting --use-v2-block-manager to True or False has no effect on vLLM behavior. Please remove --use-v2-block-manager in your engine argument. If your use case is not supported by SelfAttnBlockSpaceManager (i.e. block manager v2), please file an issue with detailed information.',
        'INFO 01-16 18:11:59 worker.py:232] Memory profiling results: total_gpu_memory=12.00GiB initial_memory_usage=3.14GiB peak_torch_memory=2.15GiB memory_usage_post_profile=3.17GiB non_torch_memory=1.11GiB kv_cache_size=6.94GiB gpu_memory_utilization=0.85',
        'ERROR 05-30 17:44:20 [dump_input.py:68] Dumping input data',
        'ERROR 05-30 17:44:20 [dump_input.py:78] Dumping scheduler output for model execution:',
        'Traceback (most recent call last):',
        '  File "/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/openai/api_server.py", line 230, in build_async_engine_client_from_engine_args',
        '    raise RuntimeError(',
        'RuntimeError: Engine process failed to start. See stack trace for the root cause.',
      ],
      'RuntimeError: Engine process failed to start. See stack trace for the root cause.',
    ],
    [
      'a settings dump and a fallback say nothing wrong: the wrapper is all there is',
      [
        "(APIServer pid=1) INFO 08-01 01:25:51 [api_utils.py:273] non-default args: {'model': '/m', 'gpu_memory_utilization': 0.85}",
        '(Worker_TP0 pid=3) INFO 08-01 01:26:53 [deep_gemm.py:175] deep_gemm not found in site-packages, trying vendored vllm.third_party.deep_gemm',
        '(EngineCore pid=2) ERROR 08-01 01:27:09 [core.py:1330] EngineCore failed to start.',
        '(EngineCore pid=2) ERROR 08-01 01:27:09 [core.py:1330] Traceback (most recent call last):',
        '(EngineCore pid=2) ERROR 08-01 01:27:09 [core.py:1330]   File "/v/vllm/v1/executor/multiproc_executor.py", line 765, in wait_for_ready',
        '(EngineCore pid=2) ERROR 08-01 01:27:09 [core.py:1330]     raise e from None',
        '(EngineCore pid=2) ERROR 08-01 01:27:09 [core.py:1330] Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.',
      ],
      'Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.',
    ],
    [
      "torch's server socket on IPv6, then on IPv4: the second failure is the one that counts",
      [
        '[W socket.cpp:436] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).',
        '[W socket.cpp:436] [c10d] The server socket has failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in use).',
        '[E socket.cpp:472] [c10d] The server socket has failed to listen on any local network address.',
      ],
      ': [W socket.cpp:436] [c10d] The server socket has failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in use).',
    ],
    [
      "Open MPI's help box: the step it names, not the box's first words",
      [
        '--------------------------------------------------------------------------',
        'It looks like orte_init failed for some reason; your parallel process is',
        'likely to abort.  There are many reasons that a parallel process can',
        "here's some additional information (which may only be relevant to an",
        'Open MPI developer):',
        '',
        '  getting local rank failed',
        '  --> Returned value No permission (-17) instead of ORTE_SUCCESS',
        '--------------------------------------------------------------------------',
      ],
      ': getting local rank failed',
    ],
    [
      "systemd-coredump's report with no word from the process before it",
      [
        'Process 340301 (llama-server) of user 1000 dumped core.',
        '',
        '  Stack trace of thread 340301:',
        '  #0  0x00007f8cdb2876c2 __pthread_kill_implementation (libc.so.6 + 0x796c2)',
      ],
      ': Process 340301 (llama-server) of user 1000 dumped core.',
    ],
    [
      "Slurm's word that a task exited, after a wrapper that carries the worker's error",
      [
        '/v/vllm/v1/executor/multiproc_executor.py:139: UserWarning: Failed to get the IP address, using 0.0.0.0 by default. The value can be set by the environment variable VLLM_HOST_IP or HOST_IP.',
        '(EngineCore_DP0 pid=4) ERROR 12-02 10:01:12 [core.py:708] EngineCore failed to start.',
        '(EngineCore_DP0 pid=4) ERROR 12-02 10:01:12 [core.py:708] Traceback (most recent call last):',
        '(EngineCore_DP0 pid=4) ERROR 12-02 10:01:12 [core.py:708]   File "/v/vllm/v1/executor/multiproc_executor.py", line 245, in collective_rpc',
        '(EngineCore_DP0 pid=4) ERROR 12-02 10:01:12 [core.py:708]     raise RuntimeError(',
        "(EngineCore_DP0 pid=4) ERROR 12-02 10:01:12 [core.py:708] RuntimeError: Worker failed with error 'CUDA out of memory. Tried to allocate 896.00 MiB.', please check the stack trace above for the root cause",
        'srun: error: node-037-04: task 0: Exited with exit code 1',
      ],
      "RuntimeError: Worker failed with error 'CUDA out of memory. Tried to allocate 896.00 MiB.', please check the stack trace above for the root cause",
    ],
    [
      "TGI's router: the shard's answer to a request, then no shard to connect to",
      [
        '2023-10-16T03:01:18.366490Z ERROR batch{batch_size=42}:decode:decode{size=42}:decode{size=42}:infer:send_error: text_generation_router::infer: router/src/infer.rs:588: Request failed during generation: Server error: Out of available cache blocks: asked 3666, only 3661 free blocks',
        '2023-10-16T03:01:18.366570Z ERROR batch{batch_size=42}:decode:decode{size=42}:decode{size=42}: text_generation_client: router/client/src/lib.rs:33: Server error: error trying to connect: Connection refused (os error 111)',
      ],
      ': Out of available cache blocks: asked 3666, only 3661 free blocks',
    ],
  ])('%s', (_, lines, expected) => {
    expect(pick(lines.join('\n'))).toBe(expected);
  });
});

describe('a traceback cut before its exception line', () => {
  it("is named by the message its first line carries (vLLM's worker), not by the cut", () => {
    // fresh-d vllm-1009: the paste stops inside the worker's traceback.
    const log = [
      '(VllmWorkerProcess pid=14678) ERROR 08-05 23:29:38 multiproc_worker_utils.py:226] Exception in worker VllmWorkerProcess while processing method load_model: Weight input_size_per_partition = 7392 is not divisible by min_thread_k = 128., Traceback (most recent call last):',
      '(VllmWorkerProcess pid=14678) ERROR 08-05 23:29:38 multiproc_worker_utils.py:226]   File "/usr/local/lib/python3.10/dist-packages/vllm/executor/multiproc_worker_utils.py", line 223, in _run_worker_process',
      '(VllmWorkerProcess pid=14678) ERROR 08-05 23:29:38 multiproc_worker_utils.py:226]     output = executor(*args, **kwargs)',
    ].join('\n');
    expect(pick(log)).toBe(
      ': Weight input_size_per_partition = 7392 is not divisible by min_thread_k = 128.',
    );
  });

  it('is named by the error its process logged just before it', () => {
    // fresh-o sglang-4361: every rank logs the mismatch, then rank 0's traceback is cut.
    const log = [
      'sglang_service-1  | [2026-09-15 13:53:07 TP1] Number of tokens in multimodal embedding does not match those in the input text. Got 279 tokens in the text but 260 tokens from multimodal embeddings.',
      'sglang_service-1  | [2026-09-15 13:53:07 TP0] Number of tokens in multimodal embedding does not match those in the input text. Got 279 tokens in the text but 260 tokens from multimodal embeddings.',
      'sglang_service-1  | [2026-09-15 13:53:07 TP0] Scheduler hit an exception: Traceback (most recent call last):',
      'sglang_service-1  |   File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1662, in run_event_loop',
      'sglang_service-1  |     dispatch_event_loop(self)',
    ].join('\n');
    const rc = diagnose(log).rootCause;
    expect(rc?.message).toMatch(/^Number of tokens in multimodal embedding does not match/);
    expect(rc?.lineNumber).toBe(2);
    // Blank lines after the cut traceback do not move where it is looked for.
    const padded = diagnose(`${log}\n\n\n`).rootCause;
    expect(padded?.message).toMatch(/^Number of tokens in multimodal embedding does not match/);
    expect(padded?.lineNumber).toBe(2);
  });

  it("looks before its own first line, not another traceback's", () => {
    // A counterexample of test/hostile/diagnose-properties.test.ts: a line number of 0 was reported.
    const log =
      'Traceback (most recent call last):\nError: ShardCannotStart\n[rank0]: Traceback (most recent call last):\n';
    expect(diagnose(log).rootCause?.lineNumber).toBeGreaterThanOrEqual(1);
  });

  it('says it was cut where its first line carries no message', () => {
    const log = [
      '[2026-09-15 13:53:07 TP0] Scheduler hit an exception: Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1662, in run_event_loop',
      '    dispatch_event_loop(self)',
    ].join('\n');
    expect(pick(log)).toBe(': a traceback ended before its exception line, at: dispatch_event_loop(self)');
  });
});

describe('a hint the server went past', () => {
  it('weighs less than the pointer at its death, even a pointer with nothing behind it', () => {
    // fresh-n sglang-4009 after an SGLang run that served: the run's start-up hint was read as the cause.
    const served = Array.from(
      { length: 50 },
      (_, i) =>
        `[2026-02-09 13:30:${String(i).padStart(2, '0')}] INFO:     127.0.0.1:4${i} - "POST /generate HTTP/1.1" 200 OK`,
    );
    const log = [
      "[2026-02-09 13:22:57] Ignore import error when loading sglang.srt.models.glmasr: cannot import name 'GlmAsrConfig' from 'transformers'",
      '[2026-02-09 13:23:40] The server is fired up and ready to roll!',
      ...served,
      'sglang-1  | [2025-10-29 11:26:03] SIGQUIT received. signum=None, frame=None. It usually means one child failed.',
    ].join('\n');
    expect(pick(log)).toBe(': SIGQUIT received. signum=None, frame=None. It usually means one child failed.');
  });

  it('weighs less than a traceback that lost its exception line', () => {
    // fresh-o sglang-4361 after an SGLang run's logs: the run's start-up hint was named over the cut traceback.
    const served = Array.from(
      { length: 150 },
      (_, i) =>
        `[2026-02-09 13:30:${String(i % 60).padStart(2, '0')}] INFO:     127.0.0.1:4${i} - "POST /generate HTTP/1.1" 200 OK`,
    );
    const log = [
      "[2026-02-09 13:22:57] Ignore import error when loading sglang.srt.multimodal.processors.mimo_v2: No module named 'torchcodec'",
      '[2026-02-09 13:23:40] The server is fired up and ready to roll!',
      ...served,
      '[2026-09-15 13:53:07 TP0] Scheduler hit an exception: Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", line 1662, in run_event_loop',
      '    dispatch_event_loop(self)',
    ].join('\n');
    expect(pick(log)).toMatch(/^: a traceback ended before its exception line/);
  });
});

describe("a kernel's assertion in every thread", () => {
  it("is blamed at its first thread's line, the one the burst begins with", () => {
    // fresh-k sglang-3404: once the assertion was a device-side assert's kind, the burst walk kept the
    // CUDA error's signature, which blamed a later thread's copy in its context.
    const threads = Array.from(
      { length: 50 },
      (_, i) =>
        `../aten/src/ATen/native/cuda/Indexing.cu:1292: indexSelectLargeIndex: block: [0,0,0], thread: [${i},0,0] Assertion \`srcIndex < srcSelectDimSize\` failed.`,
    );
    const log = [
      'INFO:     Application startup complete.',
      ...threads,
      'Traceback (most recent call last):',
      '  File "/opt/conda/lib/python3.10/site-packages/sglang/srt/models/llava.py", line 107, in forward',
      '    .cpu()',
      'RuntimeError: CUDA error: device-side assert triggered',
    ].join('\n');
    expect(diagnose(log).rootCause?.line).toBe(threads[0]);
  });
});

describe("a request's failure", () => {
  it('is the whole chain: the exception it was raised from failed that request too, not the server', () => {
    // fresh-n vllm-h4150: a proxy's tokenizer load failed inside a request; only the last traceback
    // of the chain shows the request handler's frames.
    const log = [
      'INFO:     Application startup complete.',
      'INFO:     10.0.0.1:1 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
      'ERROR:    Exception in ASGI application',
      'Traceback (most recent call last):',
      '  File "/opt/conda/lib/python3.10/site-packages/huggingface_hub/utils/_validators.py", line 154, in validate_repo_id',
      '    raise HFValidationError(',
      "huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '/m/'.",
      '',
      'The above exception was the direct cause of the following exception:',
      '',
      'Traceback (most recent call last):',
      '  File "/opt/conda/lib/python3.10/site-packages/uvicorn/protocols/http/httptools_impl.py", line 401, in run_asgi',
      '    result = await app(  # type: ignore[func-returns-value]',
      '  File "/opt/conda/lib/python3.10/site-packages/starlette/routing.py", line 73, in app',
      '    response = await f(request)',
      '  File "/app/rag_proxy.py", line 42, in get_tokenizer',
      '    _tokenizer = AutoTokenizer.from_pretrained(MODEL_NAME, use_fast=True)',
      "OSError: Incorrect path_or_model_id: '/m/'. Please provide either the path to a local folder or the repo_id of a model on the Hub.",
      'INFO:     10.0.0.1:1 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
      'INFO:     10.0.0.1:1 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
      'INFO:     10.0.0.1:1 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
      'Killed',
    ].join('\n');
    expect(pick(log)).toBe(': Killed');
  });
});

describe('failures of the dynamic loader', () => {
  it.each([
    './llama-server: symbol lookup error: ./llama-server: undefined symbol: ggml_backend_dev_count',
    './llama-server: error while loading shared libraries: libcudart.so.12: cannot open shared object file: No such file or directory',
    "./llama-server: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found (required by ./llama-server)",
  ])('%s', (line) => {
    const d = diagnose(`main: build = 1 (abc)\n${line}`);
    expect(d.verdict).toBe('failure');
    expect(d.rootCause?.line).toBe(line);
  });
});

describe('launchers and daemons that refuse to start', () => {
  it.each([
    [
      "error: unexpected argument '--max-input-length' found",
      "error: unexpected argument '--max-input-length' found",
    ],
    [
      'vllm serve: error: the following arguments are required: model_tag',
      'vllm serve: error: the following arguments are required: model_tag',
    ],
    ['Error: No such option: --tp-size', 'Error: No such option: --tp-size'],
    [
      'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].',
      'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].',
    ],
    [
      'time=2025-02-14T10:06:01.442+01:00 level=INFO source=sched.go:429 msg="NewLlamaServer failed" model=/m error="model requires more system memory (19.1 GiB) than is available (9.8 GiB)"',
      'model requires more system memory (19.1 GiB) than is available (9.8 GiB)',
    ],
  ])('%s', (line, message) => {
    const d = diagnose(line);
    expect(d.verdict).toBe('failure');
    expect(d.rootCause?.message).toBe(message);
  });
});
