import { describe, expect, it } from 'vitest';
import type { Frame } from '../../parsing/traceback.js';
import { phaseOf } from './phases.js';

const frame = (file: string, fn: string): Frame => ({ file, line: 1, function: fn, code: null });

describe('phaseOf', () => {
  it.each([
    [
      'a request handler answering',
      [frame('/opt/sglang/srt/entrypoints/http_server.py', 'v1_chat_completions')],
      'request',
    ],
    [
      "a request handler's file being imported (test/fixtures/fresh-2026-12-06w/sglang-6006)",
      [
        frame('/usr/lib/python3.10/runpy.py', '_run_code'),
        frame('/sgl-workspace/sglang/python/sglang/srt/entrypoints/http_server.py', '<module>'),
      ],
      null,
    ],
    ['weights loading', [frame('/opt/vllm/model_executor/model_loader/loader.py', 'load_model')], 'start-up'],
  ])('%s', (_name, frames, phase) => {
    expect(phaseOf(frames)).toBe(phase);
  });
});
