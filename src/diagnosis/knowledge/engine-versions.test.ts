import { describe, expect, it } from 'vitest';
import { diagnose } from '../index.js';
import { readEngineVersion } from './engine-versions.js';

describe('readEngineVersion', () => {
  it.each([
    ['vLLM API server version 0.16.0rc2.dev344+gea5f903f8', 'vllm', '0.16.0rc2.dev344+gea5f903f8'],
    ['vLLM API server version 0.10.1.1', 'vllm', '0.10.1.1'],
    [' ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.15.0', 'vllm', '0.15.0'],
    ['Initializing a V1 LLM engine (v0.8.3) with config: model=...', 'vllm', '0.8.3'],
    ['[TensorRT-LLM] TensorRT-LLM version: 0.18.0.dev2025022500', 'trtllm', '0.18.0.dev2025022500'],
    // Printed without a newline before the next output.
    [
      '[TensorRT-LLM] TensorRT-LLM version: 0.9.0.dev2024020600Input [Text 0]',
      'trtllm',
      '0.9.0.dev2024020600',
    ],
    ['Listening on 127.0.0.1:11434 (version 0.5.7)', 'ollama', '0.5.7'],
    ['build: 4743 (d07c6213) with cc (GCC) 12.2.0 for x86_64-linux-gnu', 'llamacpp', '4743 (d07c6213)'],
    ['main: build = 1179 (9217721)', 'llamacpp', '1179 (9217721)'],
  ])('%s', (text, engine, version) => {
    expect(readEngineVersion(text)).toEqual({ engine, version });
  });

  it.each([
    'PyTorch version: 2.4.0+cu121',
    'flashinfer_python is installed with version 0.6.3, which is less than the minimum required version',
    'main: build = 0 (unknown)',
    'Listening on [::]:11434',
    'Building wheel for flash-attn',
  ])('reads no engine version in %s', (text) => {
    expect(readEngineVersion(text)).toBeNull();
  });
});

describe("the diagnosis's engineVersion", () => {
  const banner =
    '(APIServer pid=1) INFO 09-10 23:26:12 [api_server.py:1805] vLLM API server version 0.10.1.1';

  it('is the version of the engine the log is from', () => {
    expect(
      diagnose([banner, '(APIServer pid=1) INFO 09-10 23:26:40 Application startup complete.'].join('\n')),
    ).toMatchObject({
      engine: 'vllm',
      engineVersion: '0.10.1.1',
    });
  });

  it("is null where only another engine's version shows", () => {
    const log = [
      '(APIServer pid=1) INFO 09-10 23:26:12 [api_server.py:1805] args: ...',
      'Listening on 127.0.0.1:11434 (version 0.5.7)',
    ];
    expect(diagnose(log.join('\n'))).toMatchObject({ engine: 'vllm', engineVersion: null });
  });
});
