import { describe, expect, it } from 'vitest';
import { diagnose } from './index.js';

// The same error logged twice (a rank's own line, then C++'s `what():` that repeats it with its line cut):
// the first copy is where it was raised. Lines of set f's sglang-1610.
const LOG = [
  '[rank6]:[E207 01:29:36.730311765 ProcessGroupNCCL.cpp:616] [Rank 6] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2, OpType=ALLREDUCE, NumelIn=1, Nume',
  "terminate called after throwing an instance of 'c10::DistBackendError'",
  '  what():  [PG ID 0 PG GUID 0(default_pg) Rank 6] Process group watchdog thread terminated with exception: [Rank 6] Watchdog caught collective operation timeout: Work',
  'NCCL(SeqNum=2, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600050 milliseconds before timing out.',
];

describe('an error logged again', () => {
  it('is named where it was first logged', () => {
    const d = diagnose(LOG.join('\n'));
    expect(d.rootCause?.lineNumber).toBe(1);
    expect(d.rootCause?.message).toContain('Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2');
  });

  it('keeps a later copy whose exception class the first lacks', () => {
    const d = diagnose(
      [
        '[PG ID 2 PG GUID 3 Rank 0] Process group watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered',
        'Traceback (most recent call last):',
        '  File "/x/worker.py", line 10, in run',
        '    step()',
        'torch.AcceleratorError: CUDA error: an illegal memory access was encountered',
      ].join('\n'),
    );
    expect(d.rootCause?.exception).toBe('torch.AcceleratorError');
  });

  // A GPU runtime's own line with its code and source, before the exception that passes its reason up
  // (set j's sglang-3206: FlashInfer's handler, then its Python wrapper's RuntimeError).
  it("is the GPU runtime's line whose reason a later exception repeats", () => {
    const d = diagnose(
      [
        'CUDA Error: no kernel image is available for execution on the device (209) /tmp/flashinfer/attention/handler.cuh: line 169 at function cudaFuncGetAttributes(&attr, kernel)',
        'Traceback (most recent call last):',
        '  File "/usr/lib/python3/dist-packages/flashinfer/decode.py", line 525, in begin_forward',
        '    self._wrapper.begin_forward(',
        'RuntimeError: BatchDecodeWithPagedKVCache failed with error no kernel image is available for execution on the device',
      ].join('\n'),
    );
    expect(d.rootCause?.lineNumber).toBe(1);
  });

  // TGI's router relays the shard's error, then panics quoting it (set g's tgi-2102, its first two lines).
  const RELAYED = [
    '2023-07-03T13:15:24.814502Z ERROR warmup{max_input_length=1024}:warmup{max_input_length=1024}: text_generation_client: router/client/src/lib.rs:33: Server error: Could not infer dtype of NoneType',
    "thread 'main' panicked at 'Unable to warmup model: Generation(\"Could not infer dtype of NoneType\")', router/src/main.rs:213:18",
  ];

  it('is the relayed error where a client logged what its server raised before quoting it again', () => {
    const d = diagnose(RELAYED.join('\n'));
    expect(d.rootCause?.lineNumber).toBe(1);
    expect(d.rootCause?.message).toBe('Server error: Could not infer dtype of NoneType');
  });

  it('is the later line where the relayed error is another', () => {
    const d = diagnose(
      [RELAYED[0]?.replace('infer dtype of NoneType', 'reach the shard at all'), RELAYED[1]].join('\n'),
    );
    expect(d.rootCause?.lineNumber).toBe(2);
  });
});
