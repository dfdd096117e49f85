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
