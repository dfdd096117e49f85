import { describe, expect, it } from 'vitest';
import { createDiagnosisSession, diagnose } from './index.js';

// "No failure" says what the log shows of health: a tick is earned by readiness or an asked-for stop.
describe('the health a log shows when nothing failed', () => {
  it.each([
    [
      'a vLLM start that became ready',
      'INFO 12-01 10:00:00 [api_server.py:1] Starting vLLM API server\nINFO:     Application startup complete.\n',
      'ready',
    ],
    [
      "llama-server's timestamped 'listening on'",
      '0.04.292.573 I srv  llama_server: model loaded\n0.04.292.607 I srv  llama_server: listening on http://127.0.0.1:7860\n',
      'ready',
    ],
    [
      'a start stopped as asked before it was ready',
      'INFO 12-01 10:00:00 [api_server.py:1] Starting vLLM API server\nINFO 12-01 10:00:05 [launcher.py:80] Shutting down FastAPI HTTP server.\nINFO:     Application shutdown complete.\n',
      'stopped',
    ],
    [
      // fresh-s sglang-h4962: a harness ended the server; its CPU monitor threads saw their processes go.
      "a server that served, then its monitor threads' word that the processes they watched are gone",
      [
        '[2026-06-03 10:37:40] INFO:     The server is fired up and ready to roll!',
        '[2026-06-03 11:09:23] INFO:     127.0.0.1:60212 - "GET /metrics HTTP/1.1" 200 OK',
        ...[3443107, 3443111].flatMap((pid) => [
          'Exception in thread Thread-2 (monitor):',
          'Traceback (most recent call last):',
          '  File "/sgl-workspace/sglang/python/sglang/srt/observability/cpu_monitor.py", line 22, in monitor',
          '  File "/opt/venv/lib/python3.10/site-packages/psutil/_pslinux.py", line 1658, in wrapper',
          `psutil.NoSuchProcess: process no longer exists (pid=${pid})`,
        ]),
        '',
      ].join('\n'),
      'ready',
    ],
    [
      'a log that ends while the weights load',
      'INFO 12-01 10:00:00 [api_server.py:1] Starting vLLM API server\nINFO 12-01 10:00:01 [model_runner.py:2] Loading model weights\n',
      'unseen',
    ],
  ])('%s: %s', (_name, log, health) => {
    const d = diagnose(log);
    expect(d.verdict).toBe('no-failure');
    expect(d.health).toBe(health);
  });
});

// `systemctl stop` of a serving unit: systemd logs `Stopping`, the SIGTERM the server died of, `Stopped`.
const STOP_AFTER_SERVING = [
  'Dec 04 10:00:00 gpu-1 systemd[1]: Started vllm.service - vLLM server.',
  'Dec 04 10:00:05 gpu-1 vllm[4242]: INFO 12-04 10:00:05 [api_server.py:1000] vLLM API server version 0.11.0',
  'Dec 04 10:02:00 gpu-1 vllm[4242]: INFO:     Application startup complete.',
  'Dec 04 10:02:10 gpu-1 vllm[4242]: INFO:     127.0.0.1:5000 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
];
const KILLED_BY_TERM = [
  'Dec 04 11:00:05 gpu-1 systemd[1]: vllm.service: Main process exited, code=killed, status=15/TERM',
  "Dec 04 11:00:05 gpu-1 systemd[1]: vllm.service: Failed with result 'signal'.",
];

describe("systemd's stop of a unit", () => {
  it.each([
    [
      'asked for: Stopping, then the TERM it exits with',
      [
        ...STOP_AFTER_SERVING,
        'Dec 04 11:00:00 gpu-1 systemd[1]: Stopping vllm.service - vLLM server...',
        ...KILLED_BY_TERM,
        'Dec 04 11:00:05 gpu-1 systemd[1]: Stopped vllm.service - vLLM server.',
      ],
      'no-failure',
    ],
    [
      'not asked for: the same TERM with no Stopping before it',
      [...STOP_AFTER_SERVING, ...KILLED_BY_TERM],
      'failure',
    ],
  ])('%s', (_name, lines, verdict) => {
    expect(diagnose(lines.join('\n')).verdict).toBe(verdict);
  });
});

describe('a death that names no cause', () => {
  it("shows the server's last lines before it, not systemd's", () => {
    const log = [
      ...STOP_AFTER_SERVING,
      'Dec 04 10:30:00 gpu-1 vllm[4242]: INFO 12-04 10:30:00 [loggers.py:1] Engine 000: Running: 64 reqs',
      'Dec 04 10:30:05 gpu-1 systemd[1]: vllm.service: A process of this unit has been killed by the OOM killer.',
      'Dec 04 10:30:05 gpu-1 systemd[1]: vllm.service: Main process exited, code=killed, status=9/KILL',
    ];
    const d = diagnose(log.join('\n'));
    expect(d.verdict).toBe('failure');
    expect(d.lastWords?.at(-1)).toContain('Running: 64 reqs');
    expect(d.lastWords?.some((line) => line.includes('systemd['))).toBe(false);
  });

  it('a cause with a message of its own has no last lines', () => {
    const d = diagnose('INFO 12-04 10:00:00 [a.py:1] loading\nValueError: max_model_len too large\n');
    expect(d.rootCause?.exception).toBe('ValueError');
    expect(d.lastWords).toBeUndefined();
  });
});

// A run that ends in a line of words no grammar knows, with no readiness and no stop: that line is the cause.
describe('a log that ends in a failure no grammar knows', () => {
  it("names a NaN check's report as its last words (fresh-l llamacpp-3700, a llama-bench run)", () => {
    const log = [
      '|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |',
      '|  2048 |    512 |   6144 |   10.534 |   194.42 |   58.584 |     8.74 |',
      'Oops(ggml_compute_forward_sum_rows_f32, ffn_moe_weights_sum-60): found nan for i1 = 0, i2 = 0, i3 = 0. ne00 = 8',
    ];
    const d = diagnose(log.join('\n'));
    expect(d.verdict).toBe('failure');
    expect(d.rootCause?.message).toContain('found nan');
  });
});

// What Python and PyTorch print as a process ends: after a server's banner, before readiness, with no stop
// asked, the start ended. An offline run (no server banner) ends so when it is done.
const LOADING = [
  'INFO 12-04 10:00:00 [api_server.py:1] vLLM API server version 0.11.0',
  'INFO 12-04 10:00:30 [default_loader.py:262] Loading weights took 28.1 seconds',
];
const LEAKED =
  '/usr/lib/python3.12/multiprocessing/resource_tracker.py:279: UserWarning: resource_tracker: There appear to be 1 leaked semaphore objects to clean up at shutdown';
const UNDESTROYED =
  '[rank0]:[W1204 10:01:00.1 ProcessGroupNCCL.cpp:1250] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources.';

describe("a process's exit words", () => {
  it.each([
    [
      'after the weights loaded, nothing else',
      [...LOADING, LEAKED],
      'failure',
      'process-exited-before-ready',
    ],
    [
      "PyTorch's process group left behind",
      [...LOADING, UNDESTROYED],
      'failure',
      'process-exited-before-ready',
    ],
    ['after readiness', [...LOADING, 'INFO:     Application startup complete.', LEAKED], 'no-failure', null],
    ['after a Ctrl-C', [...LOADING, 'KeyboardInterrupt', LEAKED], 'no-failure', null],
    [
      'with the start going on after them',
      [
        LOADING[0],
        LEAKED,
        ...Array.from({ length: 12 }, (_, i) => `INFO 12-04 10:01:${i} [x.py:1] step ${i}`),
      ],
      'no-failure',
      null,
    ],
  ] as const)('%s', (_name, lines, verdict, signature) => {
    const d = diagnose(lines.join('\n'));
    expect(d.verdict).toBe(verdict);
    expect(d.signature?.id ?? null).toBe(signature);
  });

  it('say less than a pointer to a cause elsewhere (fresh-m vllm-3857)', () => {
    const log = [
      ...LOADING,
      'Traceback (most recent call last):',
      '  File "/opt/vllm/engine/multiprocessing/client.py", line 178, in run_output_handler_loop',
      '    raise _zmq.ZMQError(_zmq.ENOTSUP)',
      'zmq.error.ZMQError: Operation not supported',
      LEAKED,
    ];
    expect(diagnose(log.join('\n')).rootCause?.message).toBe('Operation not supported');
  });

  it('quote the exit words as the cause and show what the start did last', () => {
    const d = diagnose([...LOADING, LEAKED].join('\n'));
    expect(d.rootCause?.message).toMatch(/^resource_tracker: There appear to be 1 leaked semaphore/);
    expect(d.lastWords?.at(-1)).toContain('Loading weights took');
  });
});

// Native code that crashes in its teardown after a stop was asked for: the stop is what happened.
describe('a crash as the stopped process exits', () => {
  const SERVING = [
    'INFO 12-04 10:00:00 [api_server.py:1] vLLM API server version 0.11.0',
    'INFO:     Application startup complete.',
    'INFO:     127.0.0.1:5000 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
  ];
  const STOP = [
    '^CINFO 12-04 11:00:00 [launcher.py:80] Shutting down FastAPI HTTP server.',
    'INFO:     Application shutdown complete.',
  ];
  it.each([
    [
      'a segmentation fault after the stop',
      [...SERVING, ...STOP, 'Segmentation fault (core dumped)'],
      'no-failure',
    ],
    [
      'a double free after the stop',
      [...SERVING, ...STOP, 'double free or corruption (!prev)', 'Aborted (core dumped)'],
      'no-failure',
    ],
    [
      'a double free with no stop',
      [...SERVING, 'double free or corruption (!prev)', 'Aborted (core dumped)'],
      'failure',
    ],
    ['a segmentation fault with no stop', [...SERVING, 'Segmentation fault (core dumped)'], 'failure'],
  ])('%s', (_name, lines, verdict) => {
    expect(diagnose(lines.join('\n')).verdict).toBe(verdict);
  });
});

// systemd before 233 words an exit `main process exited` and a restart `holdoff time over, scheduling restart.`
describe("an older systemd's restart loop", () => {
  it('counts its restarts and names the exit', () => {
    const round = [
      'Aug 08 09:02:33 master systemd[1]: Started Ollama Service.',
      'Aug 08 09:02:33 master systemd[1]: ollama.service: main process exited, code=exited, status=127/n/a',
      'Aug 08 09:02:33 master systemd[1]: Unit ollama.service entered failed state.',
      'Aug 08 09:02:36 master systemd[1]: ollama.service holdoff time over, scheduling restart.',
      'Aug 08 09:02:36 master systemd[1]: Stopped Ollama Service.',
    ];
    const d = diagnose([...round, ...round, ...round].join('\n'));
    expect(d.verdict).toBe('failure');
    expect(d.service?.restartLoop).toBe(true);
    expect(d.rootCause?.message).toContain('status=127/n/a');
  });
});

// A shutdown said at ERROR level is a death, not a stop: what follows is still this run's.
describe('a shutdown in an error line', () => {
  it('is no stop asked for', () => {
    const log = [
      'INFO:     127.0.0.1:48802 - "GET /health HTTP/1.1" 200 OK',
      'ERROR 11-08 11:01:29 [multiproc_executor.py:135] Worker proc VllmWorker-3 died unexpectedly, shutting down executor.',
      'ERROR 11-08 11:01:30 [core.py:502] EngineCore encountered a fatal error.',
      'ERROR 11-08 11:01:30 [core.py:502] Traceback (most recent call last):',
      'ERROR 11-08 11:01:30 [core.py:502]   File "/usr/local/lib/python3.10/dist-packages/vllm/v1/engine/core.py", line 493, in run_engine_core',
    ];
    const d = diagnose(log.join('\n'));
    expect(d.rootCause?.message).toContain('died unexpectedly');
  });
});

// A shutdown no stop asked for is orderly only where the server had gone on past its last error.
describe('a shutdown that follows an error', () => {
  const START = '2024-06-03T07:12:20.785971Z  INFO text_generation_launcher: Starting shard rank=0';
  const ERROR = '2024-06-03T07:12:23.785971Z ERROR text_generation_launcher: Widget 0 exploded';
  const SHUTDOWN = [
    '2024-06-03T07:12:23.886159Z  INFO text_generation_launcher: webserver terminated',
    '2024-06-03T07:12:23.886187Z  INFO text_generation_launcher: Shutting down shards',
  ];
  const WORK = Array.from(
    { length: 12 },
    (_, i) => `2024-06-03T07:12:2${i % 10}.0Z  INFO text_generation_launcher: Loading layer ${i}`,
  );
  it.each([
    ['right after the error: its end', [START, ERROR, ...SHUTDOWN], 'failure'],
    ['after the start went on past the error: orderly', [START, ERROR, ...WORK, ...SHUTDOWN], 'no-failure'],
  ])('%s', (_name, lines, verdict) => {
    const d = diagnose(`${lines.join('\n')}\n`);
    expect(d.verdict).toBe(verdict);
    if (verdict === 'failure') expect(d.rootCause?.message).toBe('Widget 0 exploded');
  });
});

// A log that stops, before readiness and with no stop, at a line that speaks of a failure in words no
// grammar knows: that line is the finding, not an all-clear.
describe('the last words of a log that stops at an error', () => {
  const START = [
    'INFO 12-04 09:00:00 [api_server.py:1] vLLM API server version 0.9.0',
    'INFO 12-04 09:00:01 [loader.py:1] Loading weights',
  ];
  it.each([
    ["a runtime's own words", 'Exception caught at file:D:/a/llama.cpp/ggml-sycl.cpp, line:4221', 'failure'],
    ['a bare complaint', 'widget: operation failed with code -5', 'failure'],
    ['an INFO line quoting an error', 'INFO 12-04 09:00:02 [loader.py:2] retry on error: no', 'no-failure'],
    ['a line of progress', 'Loading safetensors checkpoint shards: 100% 4/4', 'no-failure'],
  ])('%s', (_name, last, verdict) => {
    const d = diagnose(`${[...START, last].join('\n')}\n`);
    expect(d.verdict).toBe(verdict);
    if (verdict === 'failure') expect(d.rootCause?.message).toBe(last);
  });

  it('is no finding while the log may go on', () => {
    const session = createDiagnosisSession();
    session.push(`${[...START, 'widget: operation failed with code -5'].join('\n')}\n`);
    expect(session.peek().verdict).toBe('no-failure');
  });
});

// PyTorch's c10::Error prints its stack after its message: a log that ends in those frames ends at the
// error above them, however many there are.
describe('an error followed by the native stack the log ends with', () => {
  const START = ['INFO 03-29 06:17:53 [engine.py:1] Starting with engine args: AsyncEngineArgs()'];
  const ERROR =
    '[E329 06:28:12.542939754 socket.cpp:1023] [c10d] The client socket has timed out after 600000ms while trying to connect to (10.0.0.33, 54485).';
  const frames = (count: number): string[] => [
    'Exception raised from throwTimeoutError at /pytorch/torch/csrc/distributed/c10d/socket.cpp:1025 (most recent call first):',
    ...Array.from(
      { length: count },
      (_, i) =>
        `frame #${i}: <unknown function> + 0x16144fe (0x74c4ec5584fe in /x/torch/lib/libtorch_cpu.so)`,
    ),
  ];
  it.each([
    ['a short stack', 5, 'failure'],
    ['a stack longer than what may follow an error', 80, 'failure'],
  ])('%s', (_name, count, verdict) => {
    const d = diagnose(`${[...START, ERROR, ...frames(count)].join('\n')}\n`);
    expect(d.verdict).toBe(verdict);
    expect(d.rootCause?.message).toContain('The client socket has timed out');
  });

  it('is no finding when ordinary lines follow the stack', () => {
    const after = Array.from({ length: 40 }, (_, i) => `INFO 03-29 06:30:${i} [engine.py:2] still loading`);
    expect(diagnose(`${[...START, ERROR, ...frames(5), ...after].join('\n')}\n`).verdict).toBe('no-failure');
  });
});

// A later vLLM: its routes listed once the engine is up (uvicorn's own lines off), a profiler that starts
// after a delay, torch.compile's warning with the traceback of a cache it rebuilt, and the shutdown its
// signal handler logs. A served run, stopped: no failure.
describe('a later vLLM served and stopped by a signal', () => {
  const tag = (process: string, level: string, text: string): string =>
    `(${process}) ${level} 07-18 01:07:01 [x.py:1] ${text}`;
  const LOG = [
    tag('APIServer pid=1', 'INFO', "non-default args: {'model_tag': '/m', 'port': 8027}"),
    tag('Worker_TP0 pid=2', 'WARNING', 'Compiling model again due to a load failure from /cache/x'),
    tag('Worker_TP0 pid=2', 'WARNING', 'Original traceback:'),
    tag('Worker_TP0 pid=2', 'WARNING', '  File "/v/deepseek_v2.py", line 1490, in forward'),
    tag('Worker_TP0 pid=2', 'WARNING', '    hidden_states, residual = layer('),
    tag('Worker_TP0 pid=2', 'WARNING', ''),
    tag('APIServer pid=1', 'INFO', 'Starting vLLM server on http://127.0.0.1:8027'),
    tag('APIServer pid=1', 'INFO', 'Available routes are:'),
    '(APIServer pid=1) INFO:     127.0.0.1:39874 - "POST /v1/completions HTTP/1.1" 200 OK',
    tag('Worker_TP0 pid=2', 'INFO', 'Starting profiler after delay...'),
    tag('APIServer pid=1', 'INFO', '[shutdown] API server: shutdown triggered'),
    tag('EngineCore pid=3', 'INFO', '[shutdown] EngineCore: trigger received signal=SIGTERM'),
    tag('APIServer pid=1', 'INFO', '[shutdown] API server: shutting down FastAPI HTTP server'),
  ];
  it('is no failure', () => {
    const d = diagnose(`${LOG.join('\n')}\n`);
    expect(d.verdict).toBe('no-failure');
    expect(d.health).not.toBe('unseen');
  });
});

// Python's warnings module prints a message that goes on past its first line on the lines after it.
describe("a warning's words on the line after it", () => {
  it('are the warning, not a failure of their own', () => {
    const log = [
      '/x/vllm/connections.py:8: RuntimeWarning: Failed to read commit hash:',
      "No module named 'vllm._version'",
      '  from vllm.version import __version__ as VLLM_VERSION',
      'INFO 12-04 09:00:00 [api_server.py:1] vLLM API server version 0.9.0',
      'INFO:     Application startup complete.',
    ];
    expect(diagnose(`${log.join('\n')}\n`).verdict).toBe('no-failure');
  });
});
