import { describe, expect, it } from 'vitest';
import { createDiagnosisSession, diagnose } from '../../src/diagnosis/index.js';

/**
 * Whole logs as an operator pipes them: the failure after hours of serving, with or without a banner,
 * systemd's lines between runs, stops that were asked for. Lines are in the engines' real formats.
 */
const pick = (lines: readonly string[]): string | null => {
  const rc = diagnose(`${lines.join('\n')}\n`).rootCause;
  return rc ? `${rc.exception ?? ''}: ${rc.message.split('\n')[0] ?? ''}` : null;
};

const repeat = (n: number, line: (i: number) => string): string[] =>
  Array.from({ length: n }, (_, i) => line(i));

const VLLM_SERVING = [
  'INFO 09-02 08:00:00 [api_server.py:1880] vLLM API server version 0.10.1',
  'INFO 09-02 08:00:40 [core.py:215] init engine (profile, create kv cache, warmup model) took 30.1 seconds',
  'INFO:     Started server process [1]',
  'INFO:     Waiting for application startup.',
  'INFO:     Application startup complete.',
  ...repeat(60, (i) => `INFO:     10.0.0.${i % 250}:50312 - "POST /v1/chat/completions HTTP/1.1" 200 OK`),
  'INFO 09-02 09:00:00 [loggers.py:123] Engine 000: Avg prompt throughput: 512.3 tokens/s, Avg generation throughput: 80.1 tokens/s, Running: 2 reqs, GPU KV cache usage: 3.1%',
];

const LLAMA_SERVING = [
  'Dec 02 12:00:00 gpu-host llama-server[2468]: main: server is listening on http://0.0.0.0:8080 - starting the main loop',
  ...repeat(
    40,
    (i) =>
      `Dec 02 12:10:${String(i % 60).padStart(2, '0')} gpu-host llama-server[2468]: request: POST /chat/completions 127.0.0.1 200`,
  ),
];

const START_UP_TRACEBACK = [
  'Traceback (most recent call last):',
  '  File "/usr/lib/python3.12/site-packages/vllm/worker/model_runner.py", line 1021, in load_model',
  '    self.model = get_model(vllm_config=self.vllm_config)',
  '  File "/usr/lib/python3.12/site-packages/triton/backends/nvidia/driver.py", line 62, in compile_module_from_src',
  '    so = _build(name, src_path, tmpdir, library_dirs(), include_dir, libraries)',
  'RuntimeError: Failed to find C compiler. Please specify via CC environment variable.',
];

describe('context that does not depend on seeing the start', () => {
  it('a start-up traceback after serving is a new start that failed, with no banner in view', () => {
    expect(pick([...VLLM_SERVING, ...START_UP_TRACEBACK])).toBe(
      'RuntimeError: Failed to find C compiler. Please specify via CC environment variable.',
    );
  });

  it('a failure that ends the log after serving is a death, whatever came before it', () => {
    expect(
      pick([
        ...VLLM_SERVING,
        'ERROR 09-02 09:10:00 [core.py:700] EngineCore hit an exception: Traceback (most recent call last):',
        'ERROR 09-02 09:10:00 [core.py:700]   File "/v/vllm/v1/engine/core.py", line 690, in run_busy_loop',
        'ERROR 09-02 09:10:00 [core.py:700]   File "/v/vllm/v1/engine/core.py", line 400, in step',
        'ERROR 09-02 09:10:00 [core.py:700] KeyError: 17',
      ]),
    ).toBe('KeyError: 17');
  });

  it('a server that goes on serving after an error is still serving', () => {
    const log = [
      ...VLLM_SERVING,
      'ERROR 09-02 09:10:00 [core.py:700] Traceback (most recent call last):',
      'ERROR 09-02 09:10:00 [core.py:700]   File "/v/vllm/v1/engine/core.py", line 400, in step',
      'ERROR 09-02 09:10:00 [core.py:700] KeyError: 17',
      ...repeat(80, (i) => `INFO:     10.0.0.${i % 250}:50312 - "POST /v1/chat/completions HTTP/1.1" 200 OK`),
    ];
    expect(pick(log)).toBeNull();
  });

  it('an error of start-up that the server became ready after did not fail the start', () => {
    const log = [
      'build: 6123 (1d72c841) with cc (Ubuntu 13.3.0) 13.3.0 for x86_64-linux-gnu',
      'llama_params_fit_impl: cannot meet free memory target of 1024 MiB, need to reduce device memory by 6311 MiB',
      'llama_params_fit_impl: context size reduced from 131072 to 32768 -> need 6302 MiB less memory in total',
      'str: cannot properly format tensor name output with suffix=weight bid=-1 xid=-1',
      'main: server is listening on http://127.0.0.1:8080 - starting the main loop',
      'srv  update_slots: all slots are idle',
      ...repeat(5, () => 'srv  log_server_r: request: POST /v1/chat/completions 127.0.0.1 200'),
    ];
    expect(pick(log)).toBeNull();
    // The same lines with a death after readiness still explain it.
    expect(
      pick([...log, 'terminate called without an active exception', 'Aborted (core dumped)']),
    ).not.toBeNull();
  });

  it("a request's own failure at the end of a serving log is not the server's death", () => {
    expect(
      pick([
        ...VLLM_SERVING,
        'ERROR 09-02 09:10:00 [serving_chat.py:200] Error in preprocessing prompt inputs',
        'ERROR 09-02 09:10:00 [serving_chat.py:200] Traceback (most recent call last):',
        'ERROR 09-02 09:10:00 [serving_chat.py:200]   File "/v/vllm/entrypoints/openai/serving_chat.py", line 190, in create_chat_completion',
        "ERROR 09-02 09:10:00 [serving_chat.py:200] ValueError: This model's maximum context length is 4096 tokens.",
        'INFO:     10.0.0.1:50312 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request',
      ]),
    ).toBeNull();
  });

  it("systemd's plain-text Started line after a serving llama.cpp begins a new start", () => {
    expect(
      pick([
        ...LLAMA_SERVING,
        'Dec 02 13:00:00 gpu-host systemd[1]: Stopping llama.service - llama.cpp server...',
        'Dec 02 13:00:01 gpu-host systemd[1]: llama.service: Deactivated successfully.',
        'Dec 02 13:00:01 gpu-host systemd[1]: Stopped llama.service - llama.cpp server.',
        'Dec 02 13:00:01 gpu-host systemd[1]: Started llama.service - llama.cpp server.',
        "Dec 02 13:00:02 gpu-host llama-server[3000]: llama_model_load: error loading model: tensor 'blk.0.attn_q.weight' data is not within the file bounds",
        'Dec 02 13:00:02 gpu-host llama-server[3000]: llama_load_model_from_file: failed to load model',
        'Dec 02 13:00:02 gpu-host llama-server[3000]: main: error: unable to load model',
      ]),
    ).toMatch(/data is not within the file bounds/);
  });

  it('a start-up warning the server served after does not outrank the hint beside the failure that ends the log', () => {
    const log = [
      'INFO 09-02 08:00:00 [api_server.py:1880] vLLM API server version 0.10.1',
      'WARNING 09-02 08:00:10 [compilation.py:1390] CUDAGraphMode.FULL_AND_PIECEWISE is not supported with spec-decode for attention backend FlashInferBackend; setting cudagraph_mode=PIECEWISE',
      ...VLLM_SERVING.slice(1),
      'WARNING 09-02 09:05:00 [api_server.py:900] Tool call parser is not supported by this model',
      ...repeat(20, (i) => `INFO:     10.0.0.${i % 250}:50312 - "POST /v1/chat/completions HTTP/1.1" 200 OK`),
      '(EngineCore_0 pid=5839) INFO 09-02 09:10:00 [gpu_model_runner.py:2007] Model loading took 65.97 GiB and 12.8 seconds',
      '(EngineCore_0 pid=5839) INFO 09-02 09:10:10 [gpu_worker.py:276] Available KV cache memory: -2.14 GiB',
      '(EngineCore_0 pid=5839) ERROR 09-02 09:10:10 [core.py:700] EngineCore failed to start.',
      '(EngineCore_0 pid=5839) ERROR 09-02 09:10:10 [core.py:700] Traceback (most recent call last):',
    ];
    expect(pick(log)).toBe(': Available KV cache memory: -2.14 GiB');
  });

  it('a known failure message that ends the log is that failure, with the class its raise site uses', () => {
    const bare =
      'The quantization method awq is not supported for the current GPU. Minimum capability: 75. Current capability: 70.';
    expect(pick([bare])).toBe(`ValueError: ${bare}`);
    expect(pick([...VLLM_SERVING, bare])).toBe(`ValueError: ${bare}`);
    // The same words with the server going on after them are only a hint.
    expect(pick([bare, ...VLLM_SERVING])).toBeNull();
    // While the log grows (a start being watched) more may come: only its end decides.
    const session = createDiagnosisSession();
    session.pushLine(bare);
    expect(session.peek().verdict).toBe('no-failure');
    expect(session.end().rootCause?.exception).toBe('ValueError');
  });

  it('the same banner from the same process again is a new start: the failure of the last one is blamed', () => {
    const start = (version: string) =>
      `INFO 09-02 08:00:00 [api_server.py:1880] vLLM API server version ${version}`;
    expect(
      pick([
        start('0.10.1'),
        "WARNING 09-02 08:00:01 [config.py:100] Ignore import error when loading vllm.model_executor.models.foo: No module named 'foo'",
        start('0.10.1'),
        ...START_UP_TRACEBACK,
      ]),
    ).toBe('RuntimeError: Failed to find C compiler. Please specify via CC environment variable.');
  });
});

describe('shutdowns are not failures', () => {
  it("vLLM after SIGTERM: EngineDeadError 'See stack trace (above)' is its unwinding", () => {
    expect(
      pick([
        ...VLLM_SERVING,
        'INFO 09-02 10:00:00 [launcher.py:80] Shutting down FastAPI HTTP server.',
        'INFO:     Shutting down',
        'INFO:     Waiting for application shutdown.',
        'ERROR 09-02 10:00:01 [async_llm.py:420] AsyncLLM output_handler failed.',
        'ERROR 09-02 10:00:01 [async_llm.py:420] Traceback (most recent call last):',
        'ERROR 09-02 10:00:01 [async_llm.py:420]   File "/v/vllm/v1/engine/async_llm.py", line 380, in output_handler',
        'ERROR 09-02 10:00:01 [async_llm.py:420] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.',
        'INFO:     Application shutdown complete.',
        'INFO:     Finished server process [1]',
      ]),
    ).toBeNull();
  });

  it("SGLang's children that 'crashed with exit code -15' after the stop was asked for", () => {
    expect(
      pick([
        "[2025-09-03 18:00:00] server_args=ServerArgs(model_path='Qwen/Qwen3-8B', tp_size=1)",
        '[2025-09-03 18:01:00] The server is fired up and ready to roll!',
        ...repeat(
          30,
          () =>
            '[2025-09-03 18:33:41] INFO:     192.168.30.81:40312 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
        ),
        '[2025-09-03 19:00:00] Received sigterm, shutting down',
        '[2025-09-03 19:00:01] ERROR: detokenizer crashed with exit code -15',
        'Traceback (most recent call last):',
        '  File "/sgl/sglang/srt/managers/detokenizer_manager.py", line 250, in run_detokenizer_process',
        'RuntimeError: detokenizer process exited',
      ]),
    ).toBeNull();
  });

  it("systemd's Stopping, then Ollama's 'context canceled', is a stop", () => {
    expect(
      pick([
        'Jan 20 23:00:00 host ollama[1232]: time=2026-01-20T23:00:00.000Z level=INFO source=routes.go:1200 msg="Listening on 127.0.0.1:11434 (version 0.5.7)"',
        'Jan 20 23:01:00 host ollama[1232]: time=2026-01-20T23:01:00.000Z level=INFO source=server.go:600 msg="llama runner started in 3.01 seconds"',
        ...repeat(
          20,
          () =>
            'Jan 20 23:21:17 host ollama[1232]: [GIN] 2026/01/20 - 23:21:17 | 200 |  219.03ms |       127.0.0.1 | POST     "/api/generate"',
        ),
        'Jan 20 23:30:00 host systemd[1]: Stopping ollama.service - Ollama Service...',
        'Jan 20 23:30:00 host ollama[1232]: time=2026-01-20T23:30:00.000Z level=ERROR source=server.go:800 msg="post predict" error="Post \\"http://127.0.0.1:40000/completion\\": context canceled"',
        'Jan 20 23:30:01 host systemd[1]: ollama.service: Deactivated successfully.',
        'Jan 20 23:30:01 host systemd[1]: Stopped ollama.service - Ollama Service.',
      ]),
    ).toBeNull();
  });

  it('a failure before the stop still counts', () => {
    expect(
      pick([
        'INFO 09-02 08:00:00 [api_server.py:1880] vLLM API server version 0.10.1',
        ...START_UP_TRACEBACK,
        'Dec 02 13:00:00 gpu-host systemd[1]: Stopping vllm.service - vLLM...',
      ]),
    ).toMatch(/Failed to find C compiler/);
  });
});
