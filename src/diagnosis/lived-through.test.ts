import { describe, expect, it } from 'vitest';
import { diagnose } from './index.js';

/** Logs written to the shapes the real ones show (corpus-3 vllm-102, sglang-108, ollama-161). */
const TRACEBACK = [
  'Traceback (most recent call last):',
  '  File "/usr/lib/python3.10/site-packages/vllm/config.py", line 3222, in _get_quantization_config',
  '    quant_config = get_quant_config(model_config, load_config)',
  '  File "/usr/lib/python3.10/site-packages/vllm/model_executor/model_loader/weight_utils.py", line 193, in get_quant_config',
  '    raise ValueError(',
  'ValueError: Cannot find the config file for awq',
];
const PROBE = "AttributeError: 'MessageFactory' object has no attribute 'GetPrototype'";
const WORK = [
  'INFO 06-17 05:17:24 __init__.py:207] Automatically detected platform cuda.',
  "INFO 06-17 05:17:26 config.py:549] This model supports multiple tasks: {'generate'}.",
  'WARNING 06-17 05:17:26 config.py:628] awq quantization is not fully optimized yet.',
  'INFO 06-17 05:17:27 config.py:1382] Defaulting to use mp for distributed inference',
];

describe('an error the process lived through', () => {
  it.each([
    [
      'a logged error, then work, then the traceback it died with',
      [PROBE, PROBE, PROBE, ...WORK, ...TRACEBACK],
      'ValueError',
    ],
    [
      // fresh-k vllm-3519: an optional import's warning, the server's banner, then the traceback it died with.
      'a warning, one line of work, then the traceback it died with',
      [
        "WARNING 08-29 11:56:16 _custom_ops.py:17] Failed to import from vllm._C with ImportError('libcuda.so.1: cannot open shared object file: No such file or directory')",
        'INFO 08-29 11:56:19 api_server.py:440] vLLM API server version 0.5.5',
        ...TRACEBACK,
      ],
      'ValueError',
    ],
  ])('%s', (_name, lines, exception) => {
    expect(diagnose(lines.join('\n')).rootCause?.exception).toBe(exception);
  });

  // fresh-t vllm-5408: a TPU host warns that vLLM's CUDA kernels cannot load, compiles for hundreds of lines,
  // then its engine vanishes and the API server says only that it failed.
  it.each([
    [50, 'Engine core initialization failed'],
    [3, 'libcuda.so.1'],
  ])('a warning with %i lines of work before a wrapper-only death: %s named', (work, named) => {
    const log = [
      "WARNING 06-26 03:46:06 [interface.py:358] Failed to import from vllm._C: ImportError('libcuda.so.1: cannot open shared object file: No such file or directory')",
      ...Array.from(
        { length: work },
        (_, i) =>
          `(EngineCore pid=7) INFO 06-26 03:47:${String(i % 60).padStart(2, '0')} [compilation.py:9] Compiling shape ${i}`,
      ),
      '(APIServer pid=6) Traceback (most recent call last):',
      '(APIServer pid=6)   File "/v/vllm/v1/engine/utils.py", line 1272, in wait_for_engine_startup',
      '(APIServer pid=6)     raise RuntimeError(',
      '(APIServer pid=6) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
    ];
    expect(diagnose(log.join('\n')).rootCause?.message).toContain(named);
  });

  it('a crash dump after the crash is not work: the crash ends the serving', () => {
    const log = [
      'time=2026-02-20T16:27:39.848-06:00 level=INFO source=server.go:1310 msg="llama runner started in 14.74 seconds"',
      'ggml_metal_synchronize: error: command buffer 0 failed with status 5',
      'error: Insufficient Memory (00000008:kIOGPUCommandBufferCallbackErrorOutOfMemory)',
      'SIGABRT: abort',
      'PC=0x180ada5b0 m=5 sigcode=0',
      ...Array.from(
        { length: 60 },
        (_, i) =>
          `runtime.cgocall(0x101bad2a4, 0x14000019c58)\n\t/usr/local/go/src/runtime/cgocall.go:${i} +0x64 fp=0x14000019c20`,
      ),
      'time=2026-02-20T16:27:57.478-06:00 level=ERROR source=server.go:426 msg="llama runner terminated" error="exit status 2"',
    ];
    expect(diagnose(log.join('\n')).rootCause?.message).toContain(
      'kIOGPUCommandBufferCallbackErrorOutOfMemory',
    );
  });
  it('a warning that quotes a check in source code, then readiness and serving, is no crash', () => {
    // The shape of a vLLM worker echoing nvcc's output for an optional kernel (fresh-c vllm-h700).
    const log = [
      '(Worker_TP0 pid=38) WARNING 04-20 00:18:19 [flashinfer_all_reduce.py:72] Failed to initialize FlashInfer All Reduce workspace: Ninja build failed.',
      '(Worker_TP0 pid=38) WARNING 04-20 00:18:19 [flashinfer_all_reduce.py:72] do { if (!(12060 >= 12080)) { msg = "Check failed: " "CUDA_VERSION >= 12080"; } } while (0);',
      '(APIServer pid=37) INFO 04-20 00:19:22 [launcher.py:37] Available routes are:',
      '(APIServer pid=37) INFO:     Application startup complete.',
      '(APIServer pid=37) INFO:     127.0.0.1:5000 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
    ];
    const diagnosis = diagnose(log.join('\n'));
    expect(diagnosis.rootCause).toBeNull();
    expect(diagnosis.health).toBe('ready');
    // The same line at ERROR level is the crash it says.
    const failed = diagnose(log.map((l) => l.replace(' WARNING ', ' ERROR ')).join('\n'));
    expect(failed.rootCause?.message).toContain('Check failed');
  });
});

// vLLM's import_utils logs a module that failed to import, traceback and all, as a warning, and goes on.
describe('a traceback a logger wrote as a warning', () => {
  it('gives way to the error the process died of', () => {
    const warned = (text: string): string =>
      `(EngineCore pid=190) WARNING 06-11 00:29:05 [import_utils.py:408] ${text}`;
    const d = diagnose(
      `${[
        warned('Module vllm.third_party.deep_gemm was found but failed to import'),
        warned('Traceback (most recent call last):'),
        warned('  File "/opt/vllm/third_party/deep_gemm/__init__.py", line 16, in <module>'),
        warned('    from . import _C'),
        warned(
          "ImportError: cannot import name '_C' from partially initialized module 'vllm.third_party.deep_gemm'",
        ),
        ...WORK,
        ...TRACEBACK.map((line) => `(EngineCore pid=190) ERROR 06-11 00:30:00 [core.py:1] ${line}`),
      ].join('\n')}\n`,
    );
    expect(d.rootCause?.exception).toBe('ValueError');
  });
});

// A warning logged while serving, long served past, then a death that only points elsewhere (fresh-m vllm-3858
// placed after the healthy logs): the pointer says more of the death than the warning.
describe('a warning served past, then a death with only a pointer', () => {
  it('names the pointer', () => {
    const log = [
      'INFO 06-02 03:50:00 [api_server.py:1] vLLM API server version 0.6.3',
      'INFO:     Application startup complete.',
      '/usr/local/lib/python3.12/dist-packages/torch/utils/cpp_extension.py:2330: UserWarning: TORCH_CUDA_ARCH_LIST is not set, all archs for visible cards are included for compilation.',
      ...Array.from(
        { length: 60 },
        (_, i) => `INFO:     127.0.0.1:${5000 + i} - "POST /v1/chat/completions HTTP/1.1" 200 OK`,
      ),
      'Traceback (most recent call last):',
      '  File "/usr/local/lib/python3.10/dist-packages/vllm/engine/async_llm_engine.py", line 60, in generate',
      '    raise AsyncEngineDeadError(',
      'vllm.engine.async_llm_engine.AsyncEngineDeadError: Background loop is not running.',
    ];
    expect(diagnose(log.join('\n')).rootCause?.exception).toBe(
      'vllm.engine.async_llm_engine.AsyncEngineDeadError',
    );
  });
});

/**
 * An Ollama server that served, saw a death (`death`), then started a runner that probed a GPU backend it went
 * on without (`failed to initialize ROCm`, then `Server listening`) and served again (set p's Ollama failures
 * after Ollama's healthy logs).
 */
const SERVED_PAST_A_PROBE = (death: string): string[] => [
  'time=2026-06-24T21:10:00.000+05:30 level=INFO source=routes.go:1300 msg="Listening on 127.0.0.1:11434 (version 0.12.0)"',
  'time=2026-06-24T21:10:06.781+05:30 level=INFO source=server.go:1310 msg="llama runner started in 4.10 seconds"',
  '[GIN] 2026/06/24 - 21:10:07 | 200 |  1.2s |       127.0.0.1 | POST     "/api/generate"',
  death,
  '[GIN] 2026/06/24 - 21:10:08 | 200 |  1.2s |       127.0.0.1 | POST     "/api/generate"',
  'time=2026-06-24T21:11:06.746+05:30 level=INFO source=runner.go:963 msg="starting go runner"',
  'ggml_cuda_init: failed to initialize ROCm: no ROCm-capable device is detected',
  'load_backend: loaded CPU backend from /usr/lib/ollama/libggml-cpu-haswell.so',
  'time=2026-06-24T21:11:06.773+05:30 level=INFO source=runner.go:1000 msg="Server listening on 127.0.0.1:43367"',
  'time=2026-06-24T21:11:09.781+05:30 level=INFO source=server.go:1310 msg="llama runner started in 3.00 seconds"',
  '[GIN] 2026/06/24 - 21:11:10 | 200 |  1.2s |       127.0.0.1 | POST     "/api/generate"',
  '[GIN] 2026/06/24 - 21:11:11 | 200 |  1.2s |       127.0.0.1 | POST     "/api/generate"',
];

describe('an error between a death and the readiness that followed it was lived through', () => {
  it.each([
    [
      // A compose service's restart, then a model that fails to load: a fatal failure after the readiness.
      'a later model load that fails',
      'app-1 exited with code 3 (restarting)',
      [
        'time=2026-06-24T21:12:00.000+05:30 level=INFO source=runner.go:963 msg="starting go runner"',
        'llama_model_load: error loading model: unexpectedly reached end of file',
        'llama_load_model_from_file: failed to load model',
      ],
      'unexpectedly reached end of file',
    ],
    [
      // Another service's exit, then a runner's death the server lives through (Ollama logs it and retries).
      "a later runner's death",
      'app-1     | ERROR:    Application startup failed. Exiting.',
      [
        '2023/10/06 15:01:18 llama.go:313: starting llama runner',
        '2023/10/06 15:01:20 llama.go:323: llama runner exited with error: signal: illegal instruction',
        '2023/10/06 15:03:18 llama.go:330: error starting llama runner: llama runner did not start within alloted time, retrying',
      ],
      'llama runner exited with error',
    ],
  ])('%s is named, not the probe', (_name, death, failure, cause) => {
    const log = [...SERVED_PAST_A_PROBE(death), ...failure];
    expect(diagnose(log.join('\n')).rootCause?.message).toContain(cause);
  });
});

describe("a request's payload quoted in SGLang's request log", () => {
  // Set o's sglang-4364 after SGLang's healthy logs: `--log-requests` quotes each prompt whole, words and all.
  it('is no cause beside the failure after it', () => {
    const log = [
      '[2026-02-09 13:20:00] The server is fired up and ready to roll!',
      "[2026-02-09 13:43:02] Finish: obj=GenerateReqInput(rid='a54da0', text='the file was not found, nor could it be'), out={'text': 'cannot find it'}",
      ...Array.from(
        { length: 5 },
        (_, i) => `[2026-02-09 13:43:0${i}] INFO:     127.0.0.1:4000${i} - "POST /generate HTTP/1.1" 200 OK`,
      ),
      'Traceback (most recent call last):',
      '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py", line 393, in __init__',
      '    raise Exception(',
      'Exception: Capture cuda graph failed: ',
    ];
    expect(diagnose(log.join('\n')).rootCause?.message).toContain('Capture cuda graph failed');
  });
});

describe('an import that failed, then an error naming what it would have registered', () => {
  const warned = (module: string): string =>
    `(EngineCore_DP0 pid=1) WARNING 09-18 10:33:14 [camem.py:64] Failed to import ${module}: cannot open shared object file: No such file or directory. Sleep mode will be disabled.`;
  const died = (namespace: string): string[] => [
    '(EngineCore_DP0 pid=1) INFO 09-18 10:33:20 [model_runner_v1.py:2345] Starting to load model m...',
    '(EngineCore_DP0 pid=1) ERROR 09-18 10:34:30 [core.py:700] EngineCore failed to start.',
    '(EngineCore_DP0 pid=1) ERROR 09-18 10:34:30 [core.py:700] Traceback (most recent call last):',
    '(EngineCore_DP0 pid=1) ERROR 09-18 10:34:30 [core.py:700]   File "/v/torch/_ops.py", line 1, in __getattr__',
    `(EngineCore_DP0 pid=1) ERROR 09-18 10:34:30 [core.py:700] AttributeError: '_OpNamespace' '${namespace}' object has no attribute 'weak_ref_tensor'`,
  ];
  it.each([
    // fresh-s vllm-5100: vllm-ascend's kernels library registers the `_C_ascend` operators.
    ['vllm_ascend_C:libvllm_ascend_kernels.so', '_C_ascend', 1],
    ['vllm._C:libcuda.so.1', '_C', 1],
    // Another module's operators: the import failure did not take these away.
    ['vllm_flash_attn._vllm_fa2_C:libcudart.so.12', '_C', 6],
  ])('%s, then %s missing: the root cause on line %i', (module, namespace, line) => {
    expect(diagnose([warned(module), ...died(namespace)].join('\n')).rootCause?.lineNumber).toBe(line);
  });
});

describe('probes answered after a crash', () => {
  // fresh-s vllm-4955: a worker's cuBLAS failure, then five minutes of Prometheus scrapes the API server
  // answered while the engine hung, then the engine's timeout.
  const crashed = [
    '(APIServer pid=7) INFO:     Application startup complete.',
    '(APIServer pid=7) INFO:     127.0.0.1:53168 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
    '(Worker_TP4 pid=9) ERROR 06-02 22:25:31 [multiproc_executor.py:962] WorkerProc hit an exception.',
    '(Worker_TP4 pid=9) ERROR 06-02 22:25:31 [multiproc_executor.py:962] Traceback (most recent call last):',
    '(Worker_TP4 pid=9) ERROR 06-02 22:25:31 [multiproc_executor.py:962]   File "/v/vllm/model_executor/models/deepseek_v2.py", line 800, in forward',
    '(Worker_TP4 pid=9) ERROR 06-02 22:25:31 [multiproc_executor.py:962] RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, m, n, k)`',
  ];
  const dead = [
    '(EngineCore pid=8) ERROR 06-02 22:30:30 [core.py:1010] EngineCore encountered a fatal error.',
    '(APIServer pid=7) ERROR 06-02 22:30:30 [async_llm.py:704] AsyncLLM output_handler failed.',
  ];
  const probes = (path: string): string[] =>
    Array.from(
      { length: 2000 },
      (_, i) => `(APIServer pid=7) INFO:     127.0.0.1:${30000 + i} - "GET ${path} HTTP/1.1" 200 OK`,
    );

  it.each([
    ['/metrics', 'CUBLAS_STATUS_EXECUTION_FAILED'],
    ['/health', 'CUBLAS_STATUS_EXECUTION_FAILED'],
    // Requests served are work: the server went on past the error.
    ['/v1/chat/completions', 'AsyncLLM output_handler failed.'],
  ])('%s: the root cause says %s, read line by line or skipped', (path, cause) => {
    const log = [
      ...crashed,
      ...probes(path).map((l) => l.replace('"GET /v1/chat', '"POST /v1/chat')),
      ...dead,
      '',
    ].join('\n');
    for (const readEveryLine of [false, true]) {
      expect(diagnose(log, { readEveryLine }).rootCause?.message, `readEveryLine ${readEveryLine}`).toContain(
        cause,
      );
    }
  });
});
