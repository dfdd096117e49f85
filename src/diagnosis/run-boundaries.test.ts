import { describe, expect, it } from 'vitest';
import { diagnose } from './index.js';

const API = '(APIServer pid=4107)';
const SERVED = [
  `${API} INFO 11-02 10:00:00 [api_server.py:1880] vLLM API server version 0.11.0`,
  `${API} INFO:     Application startup complete.`,
  ...Array.from(
    { length: 40 },
    (_, i) => `${API} INFO:     127.0.0.1:${40000 + i} - "POST /v1/chat/completions HTTP/1.1" 200 OK`,
  ),
];
const ORDERLY_SHUTDOWN = [
  `${API} INFO 11-02 11:00:00 [launcher.py:80] Shutting down FastAPI HTTP server.`,
  `${API} INFO:     Shutting down`,
  `${API} INFO:     Waiting for application shutdown.`,
  `${API} INFO:     Application shutdown complete.`,
];
const IMPORT_FAILURE = [
  'Traceback (most recent call last):',
  '  File "/opt/vllm/.venv/bin/vllm", line 5, in <module>',
  '    from vllm.entrypoints.cli.main import main',
  'ImportError: libcudart.so.13: cannot open shared object file: No such file or directory',
];
const SIGTERM_UNWINDING = [
  `${API} INFO 11-02 11:00:00 [launcher.py:80] Received SIGTERM, shutting down.`,
  'Traceback (most recent call last):',
  '  File "/usr/lib/python3.12/asyncio/runners.py", line 118, in run',
  '    return self._loop.run_until_complete(task)',
  'asyncio.exceptions.CancelledError',
  `${API} INFO:     Application shutdown complete.`,
  'Traceback (most recent call last):',
  '  File "/opt/vllm/vllm/v1/engine/async_llm.py", line 300, in generate',
  'vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.',
];

// Another program's run in the same file after a Slurm job's stop (a benchmark's lines, test/fixtures/fresh-2026-12-06w's haystack).
const OTHER_RUN = Array.from(
  { length: 240 },
  (_, i) => `[07/11/2025-08:12:${String(i % 60).padStart(2, '0')}] [TRT-LLM] [I] Request ${i} done.`,
);
const PTX_WRAPPER = [
  '(EngineCore_DP0 pid=2421703)   File "/opt/vllm/v1/executor/multiproc_executor.py", line 342, in get_response',
  '(EngineCore_DP0 pid=2421703)     raise RuntimeError(',
  "(EngineCore_DP0 pid=2421703) RuntimeError: Worker failed with error 'CUDA error: the provided PTX was compiled with an unsupported toolchain.', please check the stack trace above for the root cause",
];
const OLLAMA_NEW_PID = [
  'Jan 30 22:13:35 arch ollama[14727]: 2024/01/30 22:13:35 cpu_common.go:11: INFO CPU has AVX2',
  'Jan 30 22:13:35 arch ollama[14727]: 2024/01/30 22:13:35 dyn_ext_server.go:145: INFO Initializing llama server',
  'Jan 30 22:13:35 arch ollama[14727]: free(): invalid pointer',
];
const OLLAMA_SERVED = [
  'Jan 30 22:10:00 arch ollama[14000]: 2024/01/30 22:10:00 routes.go:950: INFO Listening on 127.0.0.1:11434 (version 0.1.22)',
  ...Array.from(
    { length: 20 },
    (_, i) =>
      `Jan 30 22:11:${String(i).padStart(2, '0')} arch ollama[14000]: [GIN] 2024/01/30 - 22:11:${String(i).padStart(2, '0')} | 200 |  1.2s | 127.0.0.1 | POST "/api/generate"`,
  ),
];
const OLLAMA_STOPPED = [
  'Jan 30 22:13:34 arch ollama[14000]: 2024/01/30 22:13:34 routes.go:1000: INFO Received SIGTERM',
];

const cases: { name: string; lines: string[]; cause: string | null }[] = [
  {
    name: 'of the errors moved into the next run, the first is its cause, whatever order they came to it (fresh-y vllm-6507)',
    lines: [
      ...SERVED,
      'srun: forcing job termination',
      ...OTHER_RUN,
      "ERROR 02-07 02:51:31 client.py:300] RuntimeError('Engine process (pid 20) died.')",
      'ERROR 02-07 02:51:31 client.py:300] NoneType: None',
      'ERROR 02-07 02:51:34 serving_chat.py:661] Error in chat completion stream generator.',
      'ERROR 02-07 02:51:34 serving_chat.py:661] Traceback (most recent call last):',
      'ERROR 02-07 02:51:34 serving_chat.py:661]   File "/v/vllm/engine/multiprocessing/client.py", line 658, in _process_request',
      'ERROR 02-07 02:51:34 serving_chat.py:661]     raise request_output',
      "ERROR 02-07 02:51:34 serving_chat.py:661] vllm.engine.multiprocessing.MQEngineDeadError: Engine loop is not running. Inspect the stacktrace to find the original error: RuntimeError('Engine process (pid 20) died.').",
      'CRITICAL 02-07 02:51:34 launcher.py:101] MQLLMEngine is already dead, terminating server process',
    ],
    cause: "RuntimeError('Engine process (pid 20) died.')",
  },
  {
    name: "an error logged just before the traceback that begins the next run is that run's cause (fresh-x trtllm-6357)",
    lines: [
      ...SERVED,
      ...ORDERLY_SHUTDOWN.slice(0, 1),
      '[12/05/2025-06:23:18] [TRT-LLM] [RANK 7] [E] Error in event loop: vector::_M_default_append',
      'Exception in thread Thread-3 (_event_loop_wrapper):',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.12/threading.py", line 1073, in _bootstrap_inner',
    ],
    cause: 'Error in event loop: vector::_M_default_append',
  },
  {
    name: "the linker's line just before the failure that begins the next run goes with it (fresh-x vllm-6454)",
    lines: [
      ...SERVED,
      ...ORDERLY_SHUTDOWN.slice(0, 1),
      'INFO 06-06 15:54:45 [gpu_model_runner.py:1863] Encoder cache will be initialized with a budget of 98304 tokens.',
      '/usr/bin/ld: cannot find -lcuda',
      'collect2: error: ld returned 1 exit status',
      'ERROR 06-06 15:54:47 [core.py:500] EngineCore failed to start.',
    ],
    cause: 'cannot find -lcuda',
  },
  {
    name: "after a completed shutdown, a refused connection and an exited peer are the next run's failure",
    lines: [
      ...SERVED,
      ...ORDERLY_SHUTDOWN,
      'gpu-6:1180824:1180824 [3] os/linux.cc:200 NCCL WARN ncclOsSocketPollConnect: connect to 10.99.91.49<58525> returned Connection refused, exceeded error retry count after 35 attempts',
      'Traceback (most recent call last):',
      '  File "/opt/sglang/srt/distributed/parallel_state.py", line 1, in init',
      'RuntimeError: NCCL error: remote process exited or there was a network error',
    ],
    cause: 'Connection refused, exceeded error retry count',
  },
  {
    name: "a worker's traceback after an orderly shutdown, drafted once another worker's wrapper began the next run, is that run's cause",
    lines: [
      ...SERVED,
      ...ORDERLY_SHUTDOWN,
      '(Worker_TP1 pid=279) ERROR 07-10 10:27:53 [multiproc_executor.py:870]   File "/opt/venv/lib/python3.12/site-packages/vllm/model_executor/layers/quantization/sym_int4.py", line 84, in _get_quant_lib',
      '(Worker_TP1 pid=279) ERROR 07-10 10:27:53 [multiproc_executor.py:870]     raise RuntimeError(',
      '(Worker_TP1 pid=279) ERROR 07-10 10:27:53 [multiproc_executor.py:870] RuntimeError: Failed to load required quantization lib at /usr/local/lib/python3.12/dist-packages/vllm_int4_for_multi_arc.so',
      '(Worker_TP0 pid=278) ERROR 07-10 10:27:53 [multiproc_executor.py:870] WorkerProc failed to start.',
      '(Worker_TP0 pid=278) ERROR 07-10 10:27:53 [multiproc_executor.py:870] Traceback (most recent call last):',
    ],
    cause: 'Failed to load required quantization lib',
  },
  {
    name: "a Windows crash handler's exception code after an orderly shutdown is the next run's death",
    lines: [
      ...SERVED,
      ...ORDERLY_SHUTDOWN,
      '2026-03-17 22:57:10.971 [Info] (Process) srv          load:  - looking for better prompt, base f_keep = 0.017, sim = 0.000',
      '2026-03-17 22:57:10.972 [Info] (Process) srv          load:  - found better prompt with f_keep = 0.259, sim = 0.408',
      '2026-03-17 22:57:10.978 [Info] (Process) Exception Code: 0xC0000005',
    ],
    cause: 'Exception Code: 0xC0000005',
  },
  {
    name: "a proxy's report that its child died of a signal, after an orderly shutdown, is the next run's death (fresh-r llamacpp-4810)",
    lines: [
      ...SERVED,
      ...ORDERLY_SHUTDOWN,
      '[INFO] Request 10.0.1.135 "POST /upstream/qwen-coder-14B-FIM/infill HTTP/1.1" 502 41 "axios/1.8.4" 293.769421ms',
      '[DEBUG] Exclusive mode for group SUPDev, stopping other process groups',
      '[DEBUG] <qwen-coder-14B-FIM> cmd.Wait() returned error: signal: aborted (core dumped)',
    ],
    cause: 'signal: aborted (core dumped)',
  },
  {
    name: "a process's death that says it is shutting down, after an orderly shutdown, is the next run's (fresh-s vllm-4902)",
    lines: [
      ...SERVED,
      ...ORDERLY_SHUTDOWN,
      'ERROR 01-29 08:37:48 [core_client.py:564] Engine core proc EngineCore_DP1 died unexpectedly, shutting down client.',
      '[ERROR:swift] Method execution failed: infer',
      'Traceback (most recent call last):',
      '  File "/usr/local/lib/python3.12/dist-packages/swift/llm/infer/rollout.py", line 262, in llm_worker',
    ],
    cause: 'Engine core proc EngineCore_DP1 died unexpectedly',
  },
  {
    name: "a death its own engine core reports after the API server's shutdown is that run's unwinding (fresh-u vllm-h5603)",
    lines: [
      '(EngineCore pid=4200) INFO 11-02 10:00:00 [core.py:93] Initializing a V1 LLM engine (v0.11.0)',
      ...SERVED,
      ...ORDERLY_SHUTDOWN,
      '(EngineCore pid=4200) ERROR 11-02 11:00:01 [multiproc_executor.py:283] Worker proc VllmWorker-4 died unexpectedly, shutting down executor.',
    ],
    cause: null,
  },
  {
    name: "the same death from a process the run did not have is the next run's",
    lines: [
      '(EngineCore pid=4200) INFO 11-02 10:00:00 [core.py:93] Initializing a V1 LLM engine (v0.11.0)',
      ...SERVED,
      ...ORDERLY_SHUTDOWN,
      '(EngineCore pid=5311) ERROR 11-02 11:00:01 [multiproc_executor.py:283] Worker proc VllmWorker-4 died unexpectedly, shutting down executor.',
    ],
    cause: 'Worker proc VllmWorker-4 died unexpectedly',
  },
  {
    name: "Slurm's tasks killed after the job script had srun end them are the stop (fresh-u trtllm-h5500)",
    lines: [
      '2026-04-21 14:46:43 [INFO] Benchmark completed successfully',
      '2026-04-21 14:46:43 [INFO] Cleaning up 12 processes...',
      'srun: forcing job termination',
      'srun: Job step aborted: Waiting up to 122 seconds for job step to finish.',
      'srun: error: theia0043: task 0: Killed',
    ],
    cause: null,
  },
  {
    name: "after Slurm's job ended, a Triton server's model that failed to load is the next run's (set v's trtllm-5901)",
    lines: [
      '2026-04-21 14:46:43 [INFO] Cleaning up 12 processes...',
      'srun: forcing job termination',
      "failed to load 'tensorrt_llm' version 2: Invalid argument: unable to find 'tensorrtllm/model.py' for model 'tensorrt_llm', in /opt/tritonserver/backends/tensorrtllm",
    ],
    cause: "unable to find 'tensorrtllm/model.py'",
  },
  {
    name: 'the same tasks killed with no stop asked are a death',
    lines: [
      '2026-04-21 14:26:38 [INFO] Running SA-Bench benchmark',
      'srun: error: theia0043: task 0: Killed',
    ],
    cause: 'srun: error: theia0043: task 0: Killed',
  },
  {
    name: "a thread using what the shutdown closed is the old process's teardown (fresh-u vllm-h5658, LMCache's server)",
    lines: [
      ...SERVED,
      ...ORDERLY_SHUTDOWN,
      '[2026-06-02 22:55:41,264] LMCache ERROR: Error in blocking handler (mq.py:434:lmcache.v1.multiprocess.mq)',
      'Traceback (most recent call last):',
      '  File "/usr/local/lib/python3.12/dist-packages/lmcache/v1/platform/event_notifier.py", line 111, in notify',
      '    os.eventfd_write(self._efd, 1)',
      'ValueError: file descriptor cannot be a negative integer (-1)',
      'INFO:     Finished server process [739764]',
    ],
    cause: null,
  },
  {
    name: 'an import error after an orderly shutdown is the next run failing, with no banner',
    lines: [...SERVED, ...ORDERLY_SHUTDOWN, ...IMPORT_FAILURE],
    cause: 'libcudart.so.13: cannot open shared object file',
  },
  {
    name: 'a stop asked for, then the server unwinding: no failure',
    lines: [...SERVED, ...SIGTERM_UNWINDING],
    cause: null,
  },
  {
    name: 'an error logged while serving, the server going on, then another process dying: the death',
    lines: [
      ...SERVED.slice(0, 2),
      `${API} ERROR 11-02 10:00:01 [serving_chat.py:200] Failed to import python tokenizer ModuleNotFoundError: No module named 'transformers'`,
      ...SERVED.slice(2, 8),
      '(EngineCore_0 pid=4200) INFO 11-02 10:00:03 [gpu_worker.py:276] Available KV cache memory: -2.14 GiB',
      '(EngineCore_0 pid=4200) ERROR 11-02 10:00:03 [core.py:700] EngineCore failed to start.',
    ],
    cause: 'Available KV cache memory: -2.14 GiB',
  },
  {
    name: "an error logged while a stop unwinds is not the next run's: the next run's own error is",
    lines: [
      ...SERVED,
      `(EngineCore pid=4200) INFO 11-02 11:00:00 [core.py:1214] [shutdown] EngineCore: trigger received signal=SIGTERM`,
      `${API} ERROR 11-02 11:00:00 [async_llm.py:704] AsyncLLM output_handler failed.`,
      ...ORDERLY_SHUTDOWN,
      'Traceback (most recent call last):',
      '  File "/opt/vllm/vllm/entrypoints/cli/main.py", line 3, in <module>',
      '    main()',
    ],
    // A paste cut before its exception line still outweighs nothing: the unwinding's error is not it.
    cause: 'a traceback ended before its exception line',
  },
  {
    name: "a wrapper's next start that the log ends in after a warning it went past: the start before died of the cause",
    lines: [
      ...SERVED,
      'Traceback (most recent call last):',
      '  File "/opt/vllm/vllm/entrypoints/openai/api_server.py", line 530, in run_server',
      '    temp_socket.bind(("", args.port))',
      'OSError: [Errno 98] Address already in use',
      'Starting vLLM...',
      "WARNING 10-10 10:22:58 _custom_ops.py:18] Failed to import from vllm._C with ImportError('libcuda.so.1: cannot open shared object file: No such file or directory')",
      'INFO 10-10 10:23:00 api_server.py:526] vLLM API server version 0.6.1',
    ],
    cause: 'Address already in use',
  },
  {
    name: "a pointer at a death long after a stop (another program's run between) is a new run's failure",
    lines: [...SERVED, 'srun: forcing job termination', ...OTHER_RUN, ...PTX_WRAPPER],
    cause: 'the provided PTX was compiled with an unsupported toolchain',
  },
  {
    name: "a death reported long after a stop goes with the new run an error after it began (test/fixtures/fresh-2026-12-06w/vllm-6004's haystack)",
    lines: [
      ...SERVED,
      'srun: forcing job termination',
      ...OTHER_RUN,
      'ERROR 07-13 22:37:27 [multiproc_executor.py:135] Worker proc VllmWorker-3 died unexpectedly, shutting down executor.',
      'Process EngineCore_0:',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.12/multiprocessing/process.py", line 314, in _bootstrap',
      '    self.run()',
    ],
    cause: 'Worker proc VllmWorker-3 died unexpectedly',
  },
  {
    name: "the same pointer shortly after the stop is the stopped run's unwinding",
    lines: [...SERVED, 'srun: forcing job termination', ...OTHER_RUN.slice(0, 20), ...PTX_WRAPPER],
    cause: null,
  },
  {
    name: "a native crash of a service's new process after a completed shutdown is the new run's (its journal's pid)",
    lines: [...SERVED, ...ORDERLY_SHUTDOWN, ...OLLAMA_NEW_PID],
    cause: 'free(): invalid pointer',
  },
  {
    name: "the same crash of the stopped run's own process is its teardown",
    lines: [
      ...OLLAMA_SERVED,
      ...OLLAMA_STOPPED,
      'Jan 30 22:13:35 arch ollama[14000]: free(): invalid pointer',
    ],
    cause: null,
  },
];

// A syslog copy of a host's journal with no unit named (test/fixtures/fresh-2026-12-04e/vllm-1303's shape).
const HELPER_BESIDE = [
  'Apr  3 17:38:52 gpu52 langmodel[139935]: 2025-04-03 17:38:52,710 - vllm.v1.metrics.loggers - INFO - Avg prompt throughput: 0.0 tokens/s',
  'Apr  3 17:38:57 gpu52 langmodel[140223]: Traceback (most recent call last):',
  'Apr  3 17:38:57 gpu52 langmodel[140223]:   File "/opt/vllm/vllm/v1/structured_output/backend_xgrammar.py", line 1, in <module>',
  'Apr  3 17:38:57 gpu52 langmodel[140223]: OSError: /root/.cache/torch_extensions/xgrammar/xgrammar.so: cannot open shared object file: No such file or directory',
  'Apr  3 17:38:57 gpu52 systemd[1]: Starting refresh-policy-routes@enp39s0.service - Refresh policy routes for enp39s0...',
  'Apr  3 17:38:57 gpu52 systemd[1]: langmodel.service: Main process exited, code=exited, status=137/n/a',
  'Apr  3 17:38:57 gpu52 systemd[1]: refresh-policy-routes@enp39s0.service: Deactivated successfully.',
  "Apr  3 17:38:59 gpu52 systemd[1]: langmodel.service: Failed with result 'exit-code'.",
];

describe('a host helper starting beside the server', () => {
  it("is not a restart of the server: the server's own error is the cause", () => {
    expect(diagnose(`${HELPER_BESIDE.join('\n')}\n`).rootCause?.message).toContain('xgrammar.so');
  });
});

describe('where one run ends and the next begins', () => {
  it.each(cases)('$name', ({ lines, cause }) => {
    const diagnosis = diagnose(`${lines.join('\n')}\n`);
    if (cause === null) expect(diagnosis.rootCause).toBeNull();
    else expect(diagnosis.rootCause?.message).toContain(cause);
  });
});
