import { describe, expect, it } from 'vitest';
import { diagnose } from './index.js';

const BANNER = 'INFO 12-04 09:00:00 [api_server.py:1] vLLM API server version 0.9.0';
const SEGFAULT = 'Fatal Python error: Segmentation fault';

// A death that names no cause takes its kind from the stack it printed, where that stack names a place.
describe('the kind of a death that names no cause', () => {
  it.each([
    [
      "inside NCCL's all-reduce",
      [
        SEGFAULT,
        '',
        'Stack (most recent call first):',
        '  File "/usr/lib/python3.12/site-packages/vllm/distributed/device_communicators/pynccl_wrapper.py", line 299 in ncclAllReduce',
        '  File "/usr/lib/python3.12/site-packages/vllm/distributed/parallel_state.py", line 114 in all_reduce',
      ],
      'distributed-nccl',
    ],
    [
      "with only PyTorch's exit warning after it",
      [
        SEGFAULT,
        '[rank0]:[W927 00:32:19.446476778 ProcessGroupNCCL.cpp:1479] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources. For more info, please see https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())',
      ],
      'other',
    ],
    [
      'in a stack that names no place',
      [SEGFAULT, '', 'Stack (most recent call first):', '  File "/srv/app/main.py", line 3 in run'],
      'other',
    ],
  ])('%s', (_name, lines, category) => {
    const d = diagnose(`${[BANNER, ...lines].join('\n')}\n`);
    expect(d.verdict).toBe('failure');
    expect(d.signature?.category).toBe(category);
  });
});

// A cause's signature of no kind takes its kind from its words; a death's report quotes a command, not a kind.
describe('the kind of a cause whose signature has none', () => {
  it.each([
    [
      "an assertion on the model's hyperparameters",
      'llama.cpp:10939: GGML_ASSERT(hparams.n_swa > 0) failed',
      'model-unsupported-arch',
    ],
    ['an assertion that names nothing', 'ggml.c:1234: GGML_ASSERT(ok) failed', 'other'],
    [
      "a shell's report of a segfault, whose command line holds flags",
      'run.sh: line 8: 709629 Segmentation fault      (core dumped) ./llama-server --ctx-size 8192 --n-gpu-layers 99',
      'other',
    ],
  ])('%s', (_name, line, category) => {
    const d = diagnose(`main: build = 1 (abc)\n${line}\n`);
    expect(d.verdict).toBe('failure');
    expect(d.signature?.category).toBe(category);
  });
});
