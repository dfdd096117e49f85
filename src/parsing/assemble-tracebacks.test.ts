import { describe, expect, it } from 'vitest';
import { TracebackAssembler } from './assemble-tracebacks.js';
import { parseLine } from './parse-line.js';
import type { Traceback } from './traceback.js';

function assemble(text: string): Traceback[] {
  const found: Traceback[] = [];
  const assembler = new TracebackAssembler((t) => found.push(t));
  text.split('\n').forEach((line, i) => assembler.push(parseLine(line, i + 1)));
  assembler.flush();
  return found;
}

const worker = (n: number, rest: string): string =>
  `(Worker_TP${n} pid=${100 + n}) ERROR 02-20 23:33:10 [m.py:1] ${rest}`;

describe('TracebackAssembler', () => {
  it('reassembles tracebacks of processes that interleave line by line', () => {
    const lines: string[] = [];
    for (const step of [
      'Traceback (most recent call last):',
      '  File "/a/x.py", line 1, in f',
      '    f()',
      'RuntimeError: boom',
    ]) {
      for (const n of [0, 1, 2]) lines.push(worker(n, step));
    }
    const found = assemble(lines.join('\n'));
    expect(found.map((t) => [t.process, t.exception, t.message, t.frames.length])).toEqual([
      ['Worker_TP0', 'RuntimeError', 'boom', 1],
      ['Worker_TP1', 'RuntimeError', 'boom', 1],
      ['Worker_TP2', 'RuntimeError', 'boom', 1],
    ]);
    expect(found[0]?.frames[0]).toEqual({ file: '/a/x.py', line: 1, function: 'f', code: 'f()' });
  });

  it.each([
    [
      'set in bold in an issue (fresh-m vllm-3805)',
      '**RuntimeError: mat1 and mat2 shapes cannot be multiplied**',
      'RuntimeError',
    ],
    ['padded with spaces (fresh-l vllm-3669)', 'TimeoutError      ', 'TimeoutError'],
  ])('reads an exception line %s', (_name, last, exception) => {
    const found = assemble(
      ['Traceback (most recent call last):', '  File "/a/x.py", line 1, in f', '    f()', last].join('\n'),
    );
    expect(found.map((t) => t.exception)).toEqual([exception]);
  });

  it("ends an exception's message at a shell's report that the process died (fresh-m vllm-3957)", () => {
    const found = assemble(
      [
        'Traceback (most recent call last):',
        '  File "/a/x.py", line 1, in __del__',
        "AttributeError: 'Worker' object has no attribute 'core_worker'",
        '[1]    3100846 segmentation fault (core dumped)  python benchmarks/benchmark_throughput.py',
      ].join('\n'),
    );
    expect(found.map((t) => t.detail.length)).toEqual([0]);
  });

  it('links a chained exception to its cause', () => {
    const found = assemble(
      [
        'Traceback (most recent call last):',
        '  File "/a.py", line 1, in f',
        'KeyError: 1',
        '',
        'The above exception was the direct cause of the following exception:',
        '',
        'Traceback (most recent call last):',
        '  File "/b.py", line 2, in g',
        'ValueError: wrapped',
      ].join('\n'),
    );
    expect(found.map((t) => t.exception)).toEqual(['KeyError', 'ValueError']);
    expect(found[1]?.chainedFrom).toBe(found[0]);
    expect(found[1]?.chainKind).toBe('cause');
  });

  it('keeps the lines of a multi-line message', () => {
    const found = assemble(
      [
        'Traceback (most recent call last):',
        '  File "/a.py", line 1, in f',
        'RuntimeError: Ninja build failed. Ninja output:',
        '/usr/bin/ld: cannot find -lcuda',
      ].join('\n'),
    );
    expect(found[0]?.detail.map((l) => l.text)).toEqual(['/usr/bin/ld: cannot find -lcuda']);
  });

  it.each([
    [
      '`raise`',
      '    raise ValueError("No available memory for the cache blocks. "',
      'ValueError',
      'No available memory for the cache blocks. ',
    ],
    // fresh-l vllm-3657: an `assert` raises an AssertionError, its condition what failed.
    [
      '`assert`',
      '    assert actual_len >= last_group_len',
      'AssertionError',
      'assert actual_len >= last_group_len',
    ],
  ])(
    'infers the exception from %s when the excerpt lost the last line',
    (_kind, code, exception, message) => {
      const found = assemble(
        ['Traceback (most recent call last):', '  File "/a.py", line 9, in load', code].join('\n'),
      );
      expect([found[0]?.exception, found[0]?.message]).toEqual([exception, message]);
    },
  );

  it('reads exception groups and notebook tracebacks', () => {
    const group = assemble(
      [
        '  + Exception Group Traceback (most recent call last):',
        '  |   File "/a.py", line 1, in f',
        '  | ValueError: inner',
      ].join('\n'),
    );
    expect(group[0]?.exception).toBe('ValueError');
    const notebook = assemble(
      [
        'ImportError    Traceback (most recent call last)',
        '[/x/y.py](https://localhost:8080/#) in f(a)',
        '---> 81 raise ImportError("no")',
        'ImportError: no',
      ].join('\n'),
    );
    expect([notebook[0]?.exception, notebook[0]?.frames[0]?.line]).toEqual(['ImportError', 81]);
  });

  const OPEN = [
    'Traceback (most recent call last):',
    '  File "/v/dynamo/runtime/__init__.py", line 84, in wrapper',
  ];

  it.each([
    ['ERROR 03-21 05:22:24 engine.py:244] AssertionError()', 'AssertionError', ''],
    ["ERROR 03-21 05:22:24 engine.py:244] ValueError('bad dtype')", 'ValueError', 'bad dtype'],
    ['ERROR 03-21 05:22:24 engine.py:244] RayTaskError(ValueError): x', 'RayTaskError', 'x'],
  ])(
    'ends an open traceback at an exception a logger wrote as its repr: %s (fresh-r vllm-4859)',
    (line, type, message) => {
      const found = assemble([...OPEN, line].join('\n'));
      expect([found[0]?.exception, found[0]?.message]).toEqual([type, message]);
    },
  );

  it.each([
    [[...OPEN, 'ERROR 03-21 05:22:24 m.py:1] UserWarning()'], null],
    [[...OPEN, "INFO 03-21 05:22:24 m.py:1] load('model')"], null],
    [["2025-04-26T20:46:29.907Z ERROR engine.start: nixlBackendError('NIXL_ERR_BACKEND')"], undefined],
  ])('reads no exception from a call, a warning or a lone repr: %j', (lines, exception) => {
    expect(assemble(lines.join('\n'))[0]?.exception).toBe(exception);
  });

  it("reads a class with one module's name under frames, and ends its message at the next thread's header (fresh-s sglang-h4962)", () => {
    const monitor = (pid: number): string[] => [
      'Exception in thread Thread-2 (monitor):',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.10/threading.py", line 1016, in _bootstrap_inner',
      '  File "/opt/venv/lib/python3.10/site-packages/psutil/_pslinux.py", line 1658, in wrapper',
      `psutil.NoSuchProcess: process no longer exists (pid=${pid})`,
    ];
    const found = assemble([...monitor(3443107), ...monitor(3443111)].join('\n'));
    expect(found.map((t) => [t.exception, t.message, t.detail.length])).toEqual([
      ['psutil.NoSuchProcess', 'process no longer exists (pid=3443107)', 0],
      ['psutil.NoSuchProcess', 'process no longer exists (pid=3443111)', 0],
    ]);
    expect(assemble('psutil.NoSuchProcess: process no longer exists (pid=1)')).toEqual([]);
  });

  it("reads IPython 8's frames, colours and all (fresh-s vllm-5152)", () => {
    const found = assemble(
      [
        '\u001b[0;31mAssertionError\u001b[0m                            Traceback (most recent call last)',
        'Cell \u001b[0;32mIn[5], line 3\u001b[0m',
        '\u001b[0;32m----> 3\u001b[0m llm \u001b[38;5;241m=\u001b[39m LLM(model)',
        'File \u001b[0;32m~/anaconda3/lib/python3.12/site-packages/vllm/model_executor/layers/linear.py:1228\u001b[0m, in \u001b[0;36mRowParallelLinear.weight_loader\u001b[0;34m(self, param, loaded_weight)\u001b[0m',
        '\u001b[1;32m   1225\u001b[0m \u001b[38;5;28;01mif\u001b[39;00m \u001b[38;5;28mlen\u001b[39m(loaded_weight\u001b[38;5;241m.\u001b[39mshape) \u001b[38;5;241m==\u001b[39m \u001b[38;5;241m0\u001b[39m:',
        '\u001b[0;32m-> 1228\u001b[0m \u001b[38;5;28;01massert\u001b[39;00m param_data\u001b[38;5;241m.\u001b[39mshape \u001b[38;5;241m==\u001b[39m loaded_weight\u001b[38;5;241m.\u001b[39mshape',
        '',
        '\u001b[0;31mAssertionError\u001b[0m: ',
      ].join('\n'),
    );
    expect(found[0]?.exception).toBe('AssertionError');
    expect(found[0]?.frames).toEqual([
      { file: 'Cell In[5]', line: 3, function: '<cell>', code: 'llm = LLM(model)' },
      {
        file: '~/anaconda3/lib/python3.12/site-packages/vllm/model_executor/layers/linear.py',
        line: 1228,
        function: 'RowParallelLinear.weight_loader',
        code: 'assert param_data.shape == loaded_weight.shape',
      },
    ]);
  });

  it('treats a lone exception line as a truncated traceback', () => {
    const found = assemble("ModuleNotFoundError: No module named 'bitsandbytes'");
    expect([found[0]?.exception, found[0]?.truncated, found[0]?.frames.length]).toEqual([
      'ModuleNotFoundError',
      true,
      0,
    ]);
  });
});

describe('bare lines after a tagged exception line', () => {
  it('are not its message', () => {
    const found = assemble(
      [
        '(APIServer pid=1) Traceback (most recent call last):',
        '(APIServer pid=1)   File "/v/api.py", line 3, in main',
        '(APIServer pid=1)     raise RuntimeError(',
        '(APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above.',
        'srun: error: node-04: task 0: Exited with exit code 1',
      ].join('\n'),
    );
    expect(found[0]?.detail).toEqual([]);
  });

  it('are its message when indented under it', () => {
    const found = assemble(
      [
        '(EngineCore_0 pid=58) Traceback (most recent call last):',
        '(EngineCore_0 pid=58)   File "/t/cpp_extension.py", line 2522, in _run_ninja_build',
        '(EngineCore_0 pid=58)     raise RuntimeError(message) from e',
        "(EngineCore_0 pid=58) RuntimeError: Error building extension 'sampling':",
        '  FAILED: sampling.cuda.o',
        '  /bin/sh: 1: /usr/local/cuda/bin/nvcc: not found',
      ].join('\n'),
    );
    expect(found[0]?.detail.map((l) => l.text.trim())).toEqual([
      'FAILED: sampling.cuda.o',
      '/bin/sh: 1: /usr/local/cuda/bin/nvcc: not found',
    ]);
  });
});

describe('frames printed bare before the tagged exception line they raise (corpus-3 vllm-103)', () => {
  const frames = [
    '  File "/t/cpp_extension.py", line 2522, in _run_ninja_build',
    '    raise RuntimeError(message) from e',
    '',
  ];

  it('close with it, its message lines indented under it', () => {
    const found = assemble(
      [
        ...frames,
        "kserve-container (EngineCore_0 pid=58) RuntimeError: Error building extension 'sampling':",
        '  /bin/sh: 1: /usr/local/cuda/bin/nvcc: not found',
      ].join('\n'),
    );
    expect(found.map((t) => [t.exception, t.message, t.frames.length, t.detail.length])).toEqual([
      ['RuntimeError', "Error building extension 'sampling':", 1, 1],
    ]);
  });

  it('stay apart from a tagged exception of another class', () => {
    const found = assemble([...frames, '(EngineCore_0 pid=58) ValueError: another'].join('\n'));
    expect(found.map((t) => [t.exception, t.frames.length])).toEqual([
      ['RuntimeError', 1],
      ['ValueError', 0],
    ]);
  });
});

describe('a traceback quoted inside an indented block', () => {
  // Ray Serve's status in YAML: `message: |-`, then the replica's `RuntimeError(traceback.format_exc())`.
  it('ends at the exception line indented as far as its header', () => {
    const found = assemble(
      [
        '        message: |-',
        '          RuntimeError: Traceback (most recent call last):',
        '            File "/srv/replica.py", line 9, in init',
        '              torch._C._cuda_init()',
        '          RuntimeError: No CUDA GPUs are available',
      ].join('\n'),
    );
    expect(found.at(-1)?.exception).toBe('RuntimeError');
    expect(found.at(-1)?.message).toBe('No CUDA GPUs are available');
  });

  // A client's traceback drawn in Rich's box, its exception wrapped in two, then the script's own lines
  // (fresh-x vllm-6456: the compiler's error after it was read as the client's message).
  it('keeps the wrapped rest of its message, and no line standing left of it', () => {
    const found = assemble(
      [
        '                    Traceback (most recent call last):',
        '                      File "/srv/client.py", line 9, in main',
        '                        client.models.list()',
        '                    openai.APIConnectionError: Connection',
        '                    error.',
        'WARN: generation failed. Retrying once',
        '/tmp/t/cuda_utils.c:7:10: fatal error: Python.h: No such file or directory',
      ].join('\n'),
    );
    expect(found.at(-1)?.exception).toBe('openai.APIConnectionError');
    expect(found.at(-1)?.detail.map((line) => line.text.trim())).toEqual(['error.']);
  });
});

describe("torch's relay of an NCCL error", () => {
  // fresh-y vllm-6700: NCCL's class and its `Last error:` are the rest of the DistBackendError's message.
  it("keeps NCCL's class and reason as its message", () => {
    const found = assemble(
      [
        'Traceback (most recent call last):',
        '  File "/torch/distributed/distributed_c10d.py", line 2050, in all_reduce',
        '    work = group.allreduce([tensor], opts)',
        'torch.distributed.DistBackendError: NCCL error in: /torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, internal error - please report this issue to the NCCL developers, NCCL version 2.18.1',
        'ncclInternalError: Internal check failed.',
        'Last error:',
        'Attribute busid of node nic not found',
      ].join('\n'),
    );
    expect(found).toHaveLength(1);
    expect(found[0]?.exception).toBe('torch.distributed.DistBackendError');
    expect(found[0]?.detail.map((line) => line.text)).toEqual([
      'ncclInternalError: Internal check failed.',
      'Last error:',
      'Attribute busid of node nic not found',
    ]);
  });
});

describe('a traceback whose body is printed bare', () => {
  it('belongs to the process that tagged its first line', () => {
    const found = assemble(
      [
        '[2025-02-21 22:59:28 TP0] Scheduler hit an exception: Traceback (most recent call last):',
        '  File "/sgl/scheduler.py", line 1308, in process_batch_result_decode',
        '    torch.cuda.current_stream().synchronize()',
        'RuntimeError: CUDA error: an illegal memory access was encountered',
      ].join('\n'),
    );
    expect(found.map((t) => [t.process, t.exception, t.frames.length])).toEqual([['TP0', 'RuntimeError', 1]]);
  });

  it('gives up stale tracebacks in the order they were opened, whichever was seen last', () => {
    const found: Traceback[] = [];
    const assembler = new TracebackAssembler((t) => found.push(t));
    const lines = [
      worker(0, 'Traceback (most recent call last):'),
      worker(1, 'Traceback (most recent call last):'),
      worker(2, 'Traceback (most recent call last):'),
      worker(1, '  File "/a/x.py", line 1, in f'),
      worker(0, '  File "/a/x.py", line 2, in g'),
    ];
    lines.forEach((line, i) => assembler.push(parseLine(line, i + 1)));
    expect(assembler.isBusy(300)).toBe(true);
    // Worker 2 was seen last on line 3, worker 1 on 4, worker 0 on 5: 403 gives up 2 alone, 405 all.
    expect(assembler.isBusy(404)).toBe(true);
    expect(found.map((t) => t.process)).toEqual(['Worker_TP2']);
    expect(assembler.isBusy(406)).toBe(false);
    expect(found.map((t) => t.process)).toEqual(['Worker_TP2', 'Worker_TP0', 'Worker_TP1']);
  });
});
