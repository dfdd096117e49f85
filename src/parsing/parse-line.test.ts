import { describe, expect, it } from 'vitest';
import { parseLine } from './parse-line.js';

describe('parseLine', () => {
  it.each([
    [
      'journald + vLLM tag + logger',
      'Feb 20 23:31:36 llm-two vllm-kimi[1234]: (Worker_TP4 pid=2215) ERROR 02-20 23:33:10 [multiproc_executor.py:772] RuntimeError: x',
      { text: 'RuntimeError: x', process: 'Worker_TP4', level: 'ERROR', ident: 'vllm-kimi' },
    ],
    [
      "a launcher's logger relaying vLLM's lines: vLLM's level is the line's",
      '2024-07-13 15:07:34,921 - INFO - vLLM: ERROR 07-13 15:07:34 async_llm_engine.py:616] Engine iteration timed out.',
      { text: 'Engine iteration timed out.', level: 'ERROR' },
    ],
    [
      "a launcher's logger relaying a line with no header of its own: left as it is",
      '2024-07-13 15:07:34,921 - INFO - vLLM: model loaded',
      { text: 'vLLM: model loaded', level: 'INFO' },
    ],
    [
      'an exception whose message begins with a time: its class is no relay',
      'ERROR 04-28 15:36:55 [core.py:387] RuntimeError: [15:36:55] /project/cpp/regex_converter.cc:73: Regex parsing error',
      {
        text: 'RuntimeError: [15:36:55] /project/cpp/regex_converter.cc:73: Regex parsing error',
        level: 'ERROR',
      },
    ],
    [
      "a CI job's time and gutter copied from its web page, with a no-break space",
      "\u00a0 | [2025-07-11T20:13:34Z] KeyError: 'enable_server_load_tracking'",
      { text: "KeyError: 'enable_server_load_tracking'" },
    ],
    ["a CI job's time before an empty line of output", '\u00a0 | [2025-07-11T20:13:34Z]', { text: '' }],
    [
      "KServe's logger: its time, the process id, the logger's name, the level",
      '2024-07-01 07:28:04.488 1 kserve ERROR [__main__.py:<module>():254] Failed to start model server: boom',
      { text: 'Failed to start model server: boom', level: 'ERROR' },
    ],
    [
      'journald in a Chinese locale',
      '6月 10 16:45:05 host bash[107468]: RuntimeError: CUDA error: out of memory',
      { text: 'RuntimeError: CUDA error: out of memory', ident: 'bash' },
    ],
    [
      'journald in a French locale',
      'janv. 20 23:21:17 jarvis-server ollama[1232]: msg',
      { text: 'msg', ident: 'ollama' },
    ],
    [
      "docker's timestamp before an error whose words look like a host and an ident",
      '2025-06-01T10:00:00.123456789Z rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat',
      { text: 'rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat', ident: null },
    ],
    [
      'a Loki export: epoch milliseconds, ISO time, tab',
      '1779264164797\t2026-05-20T08:02:44.797Z\tRuntimeError: The size of tensor a (4) must match',
      { text: 'RuntimeError: The size of tensor a (4) must match' },
    ],
    [
      'an application logger of bracketed fields, the level among them',
      '[2025-03-05 14:28:45,820] [ERROR] [MainThread] [vllm.worker.worker_base] >>>   File "/usr/x.py", line 3, in f',
      { text: '  File "/usr/x.py", line 3, in f', level: 'ERROR' },
    ],
    [
      "TGI's tracing of a shard's exception line: the class is the message's, not the target's",
      '2024-02-21T05:55:25.318335Z DEBUG text_generation_launcher: RuntimeError: Graph compile failed.',
      { text: 'RuntimeError: Graph compile failed.', level: 'DEBUG' },
    ],
    [
      "docker's timestamp before TGI's own",
      '2025-06-01T10:00:00.123456789Z 2024-06-03T07:12:23.785971Z ERROR text_generation_launcher: Shard 0 crashed',
      { text: 'Shard 0 crashed', level: 'ERROR' },
    ],
    [
      "TGI's tracing with nested spans",
      '2023-07-03T13:15:24.814502Z ERROR warmup{max_input_length=1024}:warmup{max_input_length=1024}: text_generation_client: router/client/src/lib.rs:33: Server error: x',
      { text: 'Server error: x', level: 'ERROR' },
    ],
    [
      "a cloud console's log table copied as text, its empty cells before the time",
      '  |   | 2024-03-04 10:54:22 | ValueError: The checkpoint you are trying to load has model type `starcoder2`',
      { text: 'ValueError: The checkpoint you are trying to load has model type `starcoder2`' },
    ],
    [
      'the same with a no-break space and an ISO time',
      '\u00a0 | 2025-03-07T05:56:27.269Z | (_MapWorker pid=13019) ERROR 03-07 05:56:27 worker_base.py:581] RuntimeError: x',
      { text: 'RuntimeError: x', process: '_MapWorker', level: 'ERROR' },
    ],
    [
      'kubectl logs --prefix',
      '[pod/vllm-7d9f/vllm] ERROR 09-02 08:04:02 [core.py:596] RuntimeError: x',
      { text: 'RuntimeError: x', process: 'vllm-7d9f/vllm', level: 'ERROR' },
    ],
    [
      'vLLM worker tag with its rank word',
      '(VllmWorker TP1 pid=443) ERROR 09-02 08:04:02 [multiproc_executor.py:596] RuntimeError: CUDA error: x',
      { text: 'RuntimeError: CUDA error: x', process: 'VllmWorker TP1', level: 'ERROR' },
    ],
    [
      'a JSON log record with exc_info',
      '{"levelname": "ERROR", "message": "EngineCore failed", "processName": "EngineCore_0", "exc_info": "Traceback (most recent call last):\\nValueError: boom"}',
      {
        text: 'EngineCore failed\nTraceback (most recent call last):\nValueError: boom',
        process: 'EngineCore_0',
        level: 'ERROR',
      },
    ],
    [
      "llama.cpp's common log with timestamps",
      '1.22.756.113 E CUDA error: the requested functionality is not supported',
      { text: 'CUDA error: the requested functionality is not supported', level: 'ERROR' },
    ],
    [
      'V0 worker with rank',
      "(VllmWorker rank=0 pid=3781015) ERROR 08-16 11:45:16 [multiproc_executor.py:511] KeyError: 'x'",
      { text: "KeyError: 'x'", process: 'VllmWorker rank=0', level: 'ERROR' },
    ],
    [
      'old vLLM logger without brackets',
      'ERROR 01-02 03:04:05 registry.py:264] Error in inspecting model architecture',
      { text: 'Error in inspecting model architecture', level: 'ERROR' },
    ],
    [
      'torch rank with c10d glog',
      '[rank0]:[W816 11:45:16.475700829 ProcessGroupNCCL.cpp:1479] Warning: destroy',
      { text: 'Warning: destroy', process: 'rank0', level: 'WARNING' },
    ],
    [
      'Ray repeated suffix',
      '(RayWorkerWrapper pid=14, ip=10.0.0.6) INFO 03-27 10:29:01 [worker.py:267] Memory profiling [repeated 30x across cluster]',
      { text: 'Memory profiling', process: 'RayWorkerWrapper', repeat: 30 },
    ],
    [
      // journalctl's short output copied without its host (fresh-m sglang-3952).
      'journald without the host',
      "Mar 18 11:23:46 sgl-router-janus-pro-7b[931930]: TypeError: 'NoneType' object is not subscriptable",
      { text: "TypeError: 'NoneType' object is not subscriptable" },
    ],
    [
      // A TPU compiler's glog warning from a Ray task with no name (fresh-m vllm-h3952).
      'Ray task with no name, then glog',
      '(pid=) W0718 19:14:23.746729  310893 compiler_base.cc:8237] Unable to dump host DMA stats',
      { text: 'Unable to dump host DMA stats', process: null, level: 'WARNING' },
    ],
    ['Ray task by pid', '(pid=310604) INFO 07-18 19:09:31 x.py:1] y', { text: 'y', process: 'pid=310604' }],
    [
      'SGLang rank',
      '[2025-03-10 14:17:52 TP6] Ignore import error',
      { text: 'Ignore import error', process: 'TP6' },
    ],
    ['SGLang DP rank', '[2025-01-01 12:00:00 DP0 TP3] x', { text: 'x', process: 'DP0 TP3' }],
    [
      'TGI tracing with rank suffix',
      '2024-01-01T00:00:00.000000Z ERROR shard-manager: text_generation_launcher: Shard failed rank=1',
      { text: 'Shard failed', level: 'ERROR', process: 'shard 1' },
    ],
    [
      'docker compose around a Ray tag',
      'vllm-openai_1  | (RayWorkerWrapper pid=300) ERROR 01-02 03:04:05 [x.py:1] boom',
      { text: 'boom', process: 'RayWorkerWrapper' },
    ],
    [
      'raw ANSI codes',
      '\u001b[0;36m(EngineCore_DP0 pid=100)\u001b[0;0m \u001b[31mERROR\u001b[0m 01-02 03:04:05 [core.py:708] EngineCore failed to start.',
      { text: 'EngineCore failed to start.', process: 'EngineCore_DP0', level: 'ERROR' },
    ],
    [
      'ANSI rendered as #033',
      '#033[2m2024-01-01T00:00:00.000000Z#033[0m #033[32m INFO#033[0m #033[2mtext_generation_launcher#033[0m#033[2m:#033[0m Sharding',
      { text: 'Sharding', level: 'INFO' },
    ],
    ['caret-rendered ANSI', '^[[0;36mERROR^[[0m 01-02 03:04:05 [core.py:1] x', { text: 'x', level: 'ERROR' }],
    ['CRLF', 'ERROR 01-02 03:04:05 [core.py:1] x\r', { text: 'x' }],
    [
      'Ollama slog',
      'time=2025-01-01T00:00:00.000Z level=ERROR source=sched.go:418 msg="load failed" error="boom"',
      { level: 'ERROR', text: 'msg="load failed" error="boom"' },
    ],
    [
      'a viewer timestamp before a Go crash',
      '2025-03-05 09:00:31 SIGABRT: abort',
      { text: 'SIGABRT: abort' },
    ],
    [
      'an app logger header is not a viewer timestamp',
      '2025-03-05 09:00:31 INFO 7 [main] up',
      { text: 'up', level: 'INFO' },
    ],
    [
      'LMDeploy logging',
      '2024-01-01 00:00:00,000 - lmdeploy - ERROR - boom',
      { text: 'boom', level: 'ERROR' },
    ],
    [
      "docker's json-file driver: the line inside is read, the stream is no level",
      '{"log":"ERROR 06-01 10:00:05 [core.py:1] EngineCore failed to start.\\n","stream":"stderr","time":"2024-06-01T10:00:05Z"}',
      {
        text: 'EngineCore failed to start.',
        level: 'ERROR',
        raw: 'ERROR 06-01 10:00:05 [core.py:1] EngineCore failed to start.',
      },
    ],
    [
      'journalctl -o json: every line of stdout has priority 6, which is not its level',
      '{"PRIORITY":"6","_SYSTEMD_UNIT":"vllm.service","MESSAGE":"RuntimeError: boom"}',
      { text: 'RuntimeError: boom', level: null },
    ],
    [
      "Google Cloud Logging's export",
      '{"textPayload":"(EngineCore_DP0 pid=7) ValueError: bad","severity":"ERROR"}',
      { text: 'ValueError: bad', process: 'EngineCore_DP0', level: null },
    ],
    [
      "llama.cpp's JSON log, its level in three letters",
      '{"tid":"1","timestamp":1717236001,"level":"ERR","function":"load_model","line":685,"msg":"unable to load model"}',
      { text: 'unable to load model', level: 'ERROR' },
    ],
    [
      "an exception group's margin (Python 3.11)",
      '    |   File "/v/neuron_model_runner.py", line 72, in _prepare_prompt',
      { text: '  File "/v/neuron_model_runner.py", line 72, in _prepare_prompt' },
    ],
    [
      "an exception group's rule between sub-exceptions",
      '  +-+---------------- 1 ----------------',
      { text: '' },
    ],
    [
      "Ray Serve's replica tag",
      '(ServeReplica:default:VLLMDeployment pid=4321) ValueError: bad',
      { text: 'ValueError: bad', process: 'ServeReplica:default:VLLMDeployment' },
    ],
    [
      "DJL Serving's relay of its Python worker: the stream's level is not the line's",
      '[WARN ] PyProcess - W-1511-model-stderr: ValueError: bad',
      { text: 'ValueError: bad', level: null, process: 'W-1511' },
    ],
    [
      'DJL Serving behind mpirun --tag-output',
      'INFO  PyProcess W-299-model1-stdout: [1,0]<stdout>:torch.OutOfMemoryError: CUDA out of memory.',
      { text: 'torch.OutOfMemoryError: CUDA out of memory.', level: null, process: 'rank0' },
    ],
    [
      "log4j's level and logger (DJL Serving)",
      '[ERROR] ModelServer - Failed register workflow',
      { text: 'Failed register workflow', level: 'ERROR' },
    ],
    [
      "LMDeploy logging, a paste's first line cut in its year",
      '024-09-29 10:19:09,933 - lmdeploy - ERROR - __init__.py:17 - RuntimeError: x',
      { text: 'RuntimeError: x', level: 'ERROR' },
    ],
    [
      'TensorRT-LLM python logger',
      '[03/07/2025-11:03:44] [TRT-LLM] [E] Failed to initialize executor on rank 6: x',
      { text: 'Failed to initialize executor on rank 6: x', level: 'ERROR' },
    ],
    ['uvicorn', 'ERROR:    [Errno 98] address already in use', { text: '[Errno 98] address already in use' }],
    [
      'loguru',
      '2025-05-23 03:12:20.499 | ERROR    | xinference.core.worker:launch:80 - widget exploded',
      { text: 'widget exploded', level: 'ERROR' },
    ],
    [
      'a time, then the level',
      '2025-01-01 10:00:00,123 ERROR widget exploded',
      { text: 'widget exploded', level: 'ERROR' },
    ],
    [
      'a time, then the level in brackets',
      '2025-01-01 10:00:00 [ERROR] widget exploded',
      { text: 'widget exploded', level: 'ERROR' },
    ],
    [
      "Ray's driver logger",
      '2025-01-29 07:44:33,365 ERROR worker.py:422 -- Unhandled error: boom',
      { text: 'Unhandled error: boom', level: 'ERROR' },
    ],
    [
      "env_logger's header",
      '[2025-01-01T10:00:00Z ERROR my_crate] widget exploded',
      { text: 'widget exploded', level: 'ERROR' },
    ],
    [
      "zap's tab-separated fields",
      '2025-01-01T10:00:00.123Z\terror\tserver/main.go:12\twidget exploded',
      { text: 'widget exploded', level: 'ERROR' },
    ],
    [
      "a wrapper's stream tag after its time",
      '[2024-12-05 04:16:07] [stderr] time=2024-12-05T04:16:07.547-03:00 level=ERROR source=routes.go:1205 msg="boom"',
      { text: 'msg="boom"', level: 'ERROR' },
    ],
    [
      "PyTorch's glog-style header with the module's path, after torch's rank",
      '[rank2]:E0716 18:21:22.792000 132331 torch/_inductor/runtime/triton_heuristics.py:874] OSError: boom',
      { text: 'OSError: boom', level: 'ERROR', process: 'rank2' },
    ],
    [
      "PyTorch's C++ log, bracketed",
      '[E329 06:28:12.542939754 socket.cpp:1023] [c10d] The client socket has timed out after 600000ms',
      { text: '[c10d] The client socket has timed out after 600000ms', level: 'ERROR' },
    ],
    [
      "SGLang's request log, a prompt and all",
      "[2026-02-09 13:43:02] Finish: obj=GenerateReqInput(text='RuntimeError: CUDA error'), out={'text': 'ok'}",
      {
        text: "obj=GenerateReqInput(text='RuntimeError: CUDA error'), out={'text': 'ok'}",
        level: 'INFO',
      },
    ],
    [
      "SGLang's request log after a time of its own",
      '[13:43:02 TP0] Receive: obj=GenerateReqInput(text="Error: x")',
      { text: 'Receive: obj=GenerateReqInput(text="Error: x")', level: 'INFO', process: 'TP0' },
    ],
    ["Python's basicConfig", 'ERROR:root:widget exploded', { text: 'widget exploded', level: 'ERROR' }],
    [
      'a level before the time',
      'ERROR 2025-07-21 14:34:24.934 factory.py:62] boom',
      { text: 'boom', level: 'ERROR' },
    ],
    ['a lone bracketed level is the message', '[ERROR] widget exploded', { text: '[ERROR] widget exploded' }],
    ['an error message is no header', 'Error: widget exploded', { text: 'Error: widget exploded' }],
    ['k9s borders', '│ ERROR 01-02 03:04:05 engine.py:389] boom │', { text: 'boom', level: 'ERROR' }],
    [
      'CI timestamp with column marker',
      '  | [2024-09-05T00:38:34Z] ERROR:    [Errno 98] bind',
      { text: '[Errno 98] bind', level: 'ERROR' },
    ],
    [
      'TGI JSON output',
      '{"timestamp":"2024-01-01T00:00:00Z","level":"ERROR","fields":{"message":"Shard 0 failed"},"target":"t"}',
      { text: 'Shard 0 failed', level: 'ERROR' },
    ],
    [
      'systemd about a unit',
      'Feb 20 23:31:40 llm-two systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE',
      { text: 'vllm.service: Main process exited, code=exited, status=1/FAILURE', ident: 'systemd' },
    ],
    [
      'a bare traceback frame',
      '  File "/x.py", line 3, in f',
      { text: '  File "/x.py", line 3, in f', process: null },
    ],
  ])('%s', (_name, line, expected) => {
    expect(parseLine(line, 1)).toMatchObject(expected);
  });

  it('never throws on hostile text', () => {
    for (const text of ['', '\u0000\u0000', '{"level":', '('.repeat(10_000), '\uFFFD'.repeat(100)]) {
      expect(() => parseLine(text, 1)).not.toThrow();
    }
  });
});
