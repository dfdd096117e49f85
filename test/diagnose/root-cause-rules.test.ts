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
