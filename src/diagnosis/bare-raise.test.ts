import { describe, expect, it } from 'vitest';
import { saysNothing } from './bare-raise.js';
import { diagnose } from './index.js';

describe('saysNothing', () => {
  it.each<[string, boolean]>([
    ['', true],
    ['   ', true],
    ['get_device_capability() (interface.py:28): raise AssertionError, called by: if x:', true],
    ['__exit__() (helpers.py:671): raise asyncio.TimeoutError from exc_val', true],
    ['<vllm.config.ModelConfig object at 0x7fec41821900>', true],
    ["'Cannot find `mm_limits` for model=Qwen2-VL'", false],
    ['<unknown>', false],
  ])('%j: %s', (message, nothing) => {
    expect(saysNothing(message)).toBe(nothing);
  });
});

// A KeyError keyed by an object, re-raised with words (vLLM's multimodal registry): the words are the cause.
const CHAINED_KEY_ERROR = [
  'Traceback (most recent call last):',
  '  File "/app/vllm/multimodal/registry.py", line 100, in get_max_tokens',
  '    return self._limits_by_model[model_config]',
  'KeyError: <vllm.config.ModelConfig object at 0x7fec41821900>',
  '',
  'The above exception was the direct cause of the following exception:',
  '',
  'Traceback (most recent call last):',
  '  File "/app/vllm/multimodal/registry.py", line 104, in get_max_tokens',
  '    raise KeyError(msg) from exc',
  "KeyError: 'Cannot find `mm_limits` for model=Qwen2-VL-7B-Instruct. Did you forget to register the model?'",
];

describe('a chain whose first exception names only an object', () => {
  it('blames the exception that says what was looked for', () => {
    expect(diagnose(CHAINED_KEY_ERROR.join('\n')).rootCause?.message).toMatch(/Cannot find `mm_limits`/);
  });
});

// vLLM's engine loop logs why before it re-raises a bare TimeoutError; a logger of its own relays both.
const TIMED_OUT = [
  'ERROR 07-13 15:07:34 async_llm_engine.py:616] Engine iteration timed out. This should never happen!',
  'ERROR 07-13 15:07:34 async_llm_engine.py:53] Engine background task failed',
  'ERROR 07-13 15:07:34 async_llm_engine.py:53] Traceback (most recent call last):',
  'ERROR 07-13 15:07:34 async_llm_engine.py:53]   File "/app/vllm/engine/async_timeout.py", line 178, in _do_exit',
  'ERROR 07-13 15:07:34 async_llm_engine.py:53]     raise asyncio.TimeoutError',
  'ERROR 07-13 15:07:34 async_llm_engine.py:53] asyncio.exceptions.TimeoutError',
];
const REPR_LOGGED = [
  'ERROR 12-13 08:58:11 engine.py:165] NoFreeBlocksError()',
  'ERROR 12-13 08:58:11 engine.py:165] Traceback (most recent call last):',
  'ERROR 12-13 08:58:11 engine.py:165]   File "/app/vllm/core/block/naive_block.py", line 10, in allocate',
  'ERROR 12-13 08:58:11 engine.py:165]     raise BlockAllocator.NoFreeBlocksError()',
  'ERROR 12-13 08:58:11 engine.py:165] vllm.core.block.interfaces.BlockAllocator.NoFreeBlocksError',
];

describe('an exception with no words, and the error logged just before it', () => {
  it.each([
    ['its own words stand for it', TIMED_OUT, /^Engine iteration timed out/],
    [
      'relayed by another logger, the same',
      TIMED_OUT.map((line) => `2024-07-13 15:07:34,921 - INFO - vLLM: ${line}`),
      /^Engine iteration timed out/,
    ],
    ["the exception's repr is no words of its own", REPR_LOGGED, /^$/],
  ])('%s', (_name, lines, message) => {
    expect(diagnose(lines.join('\n')).rootCause?.message).toMatch(message);
  });
});

// starlette's State reads attributes from a dict: the KeyError names the key, the AttributeError the object.
const LOOKUP = [
  'Traceback (most recent call last):',
  '  File "/usr/lib/python3/starlette/datastructures.py", line 668, in __getattr__',
  '    return self._state[key]',
  "KeyError: 'enable_server_load_tracking'",
  '',
  'During handling of the above exception, another exception occurred:',
  '',
  'Traceback (most recent call last):',
  '  File "/usr/lib/python3/vllm/entrypoints/utils.py", line 36, in listen_for_disconnect',
  '    if request.app.state.enable_server_load_tracking:',
  '  File "/usr/lib/python3/starlette/datastructures.py", line 671, in __getattr__',
  '    raise AttributeError(message.format(self.__class__.__name__, key))',
  "AttributeError: 'State' object has no attribute 'enable_server_load_tracking'",
];

describe("a dict's KeyError that __getattr__ turns into an AttributeError", () => {
  it('blames the AttributeError, which names the object', () => {
    expect(diagnose(LOOKUP.join('\n')).rootCause?.exception).toBe('AttributeError');
  });

  it('leaves a KeyError raised elsewhere first in its chain', () => {
    const elsewhere = LOOKUP.map((line) => line.replace('in __getattr__', 'in get_state'));
    expect(diagnose(elsewhere.join('\n')).rootCause?.exception).toBe('KeyError');
  });
});

// uvicorn's header, then a traceback whose exception has no words (fresh-l vllm-3669, padded with spaces).
describe('a bare exception under a header that only announces it', () => {
  it('names the exception with the raise that gave it no words', () => {
    const log = [
      'ERROR:    Exception in ASGI application',
      'Traceback (most recent call last):',
      '  File "/venv/lib/python3.11/site-packages/aiohttp/streams.py", line 343, in _wait',
      '    with self._timer:',
      '  File "/venv/lib/python3.11/site-packages/aiohttp/helpers.py", line 671, in __exit__',
      '    raise asyncio.TimeoutError from exc_val',
      'TimeoutError      \r',
    ];
    const cause = diagnose(log.join('\n')).rootCause;
    expect(cause?.exception).toBe('TimeoutError');
    expect(cause?.message).toBe(
      '__exit__() (helpers.py:671): raise asyncio.TimeoutError from exc_val, called by: with self._timer:',
    );
  });
});

// A paste cut before its exception line: the line of code it stopped at says most.
describe('a traceback cut before its exception line', () => {
  const cut = (code: string): string[] => [
    'Traceback (most recent call last):',
    '  File "/opt/vllm/lib64/python3.12/site-packages/vllm/model_executor/models/mllama.py", line 1392, in forward',
    `    ${code}`,
  ];

  it('says the code it ended at', () => {
    expect(diagnose(cut('hidden = torch.cat(parts)').join('\n')).rootCause?.message).toBe(
      'a traceback ended before its exception line, at: hidden = torch.cat(parts)',
    );
  });

  it('at an `assert`, is the AssertionError its condition raised (fresh-l vllm-3657)', () => {
    const cause = diagnose(cut('assert actual_len >= last_group_len').join('\n')).rootCause;
    expect([cause?.exception, cause?.message]).toEqual([
      'AssertionError',
      'assert actual_len >= last_group_len',
    ]);
  });
});
