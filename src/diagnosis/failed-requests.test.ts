import { describe, expect, it } from 'vitest';
import { diagnose } from './index.js';

const READY = [
  'INFO 12-01 10:00:00 [api_server.py:1] Starting vLLM API server',
  'INFO:     Application startup complete.',
  'INFO:     127.0.0.1:5000 - "POST /v1/embeddings HTTP/1.1" 200 OK',
];

/** uvicorn's report of a request handler's unhandled exception, as vLLM's API server prints it. */
function requestTraceback(status: string, exception: string): string[] {
  return [
    `INFO:     127.0.0.1:5001 - "POST /v1/embeddings HTTP/1.1" ${status}`,
    'ERROR:    Exception in ASGI application',
    'Traceback (most recent call last):',
    '  File "/usr/lib/python3/site-packages/uvicorn/protocols/http/httptools_impl.py", line 409, in run_asgi',
    '    result = await app(  # type: ignore[func-returns-value]',
    '  File "/usr/lib/python3/site-packages/vllm/entrypoints/openai/api_server.py", line 138, in create_embedding',
    '    return JSONResponse(content=generator.model_dump())',
    exception,
  ];
}

// A server whose requests fail in its own code runs on, but is no all-clear; a client's bad request is.
describe('requests that fail while the server runs', () => {
  it.each([
    [
      "the server's own bug, answered with a 500",
      requestTraceback(
        '500 Internal Server Error',
        'ValueError: Out of range float values are not JSON compliant',
      ),
      'failure',
    ],
    [
      'a prompt over the context length, answered with a 400',
      requestTraceback(
        '400 Bad Request',
        "vllm.exceptions.VLLMValidationError: This model's maximum context length is 8192 tokens. However, you requested 8193 tokens.",
      ),
      'no-failure',
    ],
    [
      "anyio's exception group over a client that went away",
      requestTraceback(
        '200 OK',
        'exceptiongroup.ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)',
      ),
      'no-failure',
    ],
    [
      'a client that went away',
      requestTraceback('200 OK', 'asyncio.exceptions.CancelledError: the client went away'),
      'no-failure',
    ],
    [
      // fresh-s vllm-h5167: vLLM's handler logs what it caught, traceback and all, and answers it.
      "an exception the handler's own logger wrote, answered with a 400",
      [
        'ERROR 04-25 07:04:45 [serving_chat.py:200] Error in preprocessing prompt inputs',
        'ERROR 04-25 07:04:45 [serving_chat.py:200] Traceback (most recent call last):',
        'ERROR 04-25 07:04:45 [serving_chat.py:200]   File "/opt/app-root/lib64/python3.11/site-packages/vllm/entrypoints/openai/serving_chat.py", line 183, in create_chat_completion',
        'ERROR 04-25 07:04:45 [serving_chat.py:200]     raise ValueError(',
        'ERROR 04-25 07:04:45 [serving_chat.py:200] ValueError: As of transformers v4.44, default chat template is no longer allowed, so you must provide a chat template if the tokenizer does not define one.',
        'INFO:     127.0.0.1:36034 - "POST /v1/chat/completions HTTP/1.1" 400 Bad Request',
        ...Array.from(
          { length: 32 },
          (_, i) =>
            `INFO 04-25 07:05:${10 + i} [loggers.py:87] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs`,
        ),
      ],
      'no-failure',
    ],
  ])('%s', (_name, lines, verdict) => {
    const d = diagnose(
      [...READY, ...lines, 'INFO:     127.0.0.1:5002 - "GET /metrics HTTP/1.1" 200 OK', ''].join('\n'),
    );
    expect(d.verdict).toBe(verdict);
    if (verdict === 'failure') {
      expect(d.rootCause?.message).toBe('Out of range float values are not JSON compliant');
      expect(d.warnings.join(' ')).toMatch(/stayed up/);
    }
  });
});
