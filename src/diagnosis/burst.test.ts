import { describe, expect, it } from 'vitest';
import { diagnose } from './index.js';

const START = 'build: 4240 (b2bbd3f5) with cc (GCC) 13.2.0 for x86_64-linux-gnu';

// The lines one process logs one after another about one failure: named where the burst began.
describe('a burst of failure lines', () => {
  it('names the first of lines that say one failure, with the words of each', () => {
    const d = diagnose(
      `${[
        START,
        'MESA: error: ../src/intel/vulkan/anv_device.c:4237: VK_ERROR_OUT_OF_DEVICE_MEMORY',
        'ggml_vulkan: Device memory allocation of size 1610612736 failed.',
        'ggml_vulkan: vk::Device::allocateMemory: ErrorOutOfDeviceMemory',
      ].join('\n')}\n`,
    );
    expect(d.rootCause?.message).toContain('VK_ERROR_OUT_OF_DEVICE_MEMORY');
    expect(d.rootCause?.message).toContain('Device memory allocation of size 1610612736 failed.');
    expect(d.signature?.category ?? d.general?.category).toBe('oom-gpu');
  });

  it('names the error line before an assertion that names nothing', () => {
    const d = diagnose(
      `${[
        START,
        'ggml_backend_sycl_graph_compute: error: op not supported node_1586 (FLASH_ATTN_EXT)',
        '/app/llama.cpp/ggml/src/ggml-sycl/ggml-sycl.cpp:4213: GGML_ASSERT(ok) failed',
      ].join('\n')}\n`,
    );
    expect(d.rootCause?.message).toBe(
      'ggml_backend_sycl_graph_compute: error: op not supported node_1586 (FLASH_ATTN_EXT)',
    );
  });

  it('keeps an assertion that names its condition', () => {
    const d = diagnose(
      `${[
        START,
        'ggml_backend_sycl_graph_compute: error: op not supported node_1586 (FLASH_ATTN_EXT)',
        '/app/llama.cpp/ggml/src/ggml.c:1554: GGML_ASSERT(view_src == NULL || data_size == 0) failed',
      ].join('\n')}\n`,
    );
    expect(d.rootCause?.message).toContain('GGML_ASSERT(view_src == NULL');
  });
});

// `raise TimeoutError` with no words, then `raise TimeoutError("RPC call ... timed out.") from e`.
describe('a bare exception chained to its own class with words', () => {
  it('is named by the one with words', () => {
    const tb = (exception: string, raise: string): string[] => [
      'Traceback (most recent call last):',
      '  File "/v/executor.py", line 1, in rpc',
      `    ${raise}`,
      exception,
    ];
    const d = diagnose(
      `${[
        ...tb('TimeoutError', 'raise TimeoutError'),
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        ...tb('TimeoutError: RPC call to execute_model timed out.', 'raise TimeoutError(msg) from e'),
      ].join('\n')}\n`,
    );
    expect(d.rootCause?.message).toBe('RPC call to execute_model timed out.');
  });
});

// A native library's error line, then the Python traceback of the exception that carried it up.
describe('a native error before the traceback that carried it', () => {
  const TRACEBACK = [
    'Traceback (most recent call last):',
    '  File "/sglang/python/sglang/srt/managers/router/model_runner.py", line 128, in init_flashinfer_args',
    '    self.decode_wrapper.begin_forward(',
    '  File "/usr/local/lib/python3.10/dist-packages/flashinfer/ops/__init__.py", line 523, in begin_forward',
    '    self._wrapper.begin_forward(',
  ];
  it.each([
    [
      'the native line says where (fresh-l sglang-3610)',
      'CUDA Error: out of memory (2) /sglang/3rdparty/flashinfer/include/flashinfer/handler.cuh: line 100 at function cudaMallocAsync(&float_buffer_, sizeof(float) * tmp_size, stream_)',
      'RuntimeError: BatchDecodeWithPagedKVCache failed with error out of memory',
      /^CUDA Error: out of memory \(2\)[^]*failed with error out of memory/,
    ],
    [
      'a copy of the exception adds nothing',
      'CUDA error: out of memory',
      'RuntimeError: CUDA error: out of memory',
      /^CUDA error: out of memory$/,
    ],
  ])('%s', (_name, native, raised, message) => {
    const d = diagnose(`${[native, 'Exception in ModelRpcClient:', ...TRACEBACK, raised].join('\n')}\n`);
    expect(d.rootCause?.exception).toBe('RuntimeError');
    expect(d.rootCause?.message).toMatch(message);
  });
});
