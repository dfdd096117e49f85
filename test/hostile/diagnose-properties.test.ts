import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDiagnosisSession, diagnose } from '../../src/diagnosis/index.js';
import { DIAGNOSIS_KEYS, diagnosisSchema } from './diagnosis-schema.js';
import { AFTERMATH, WORKER_COUNT, interleave, workerStreams } from './fixtures.js';

const encoder = new TextEncoder();

function expectValid(diagnosis: unknown): void {
  const result = diagnosisSchema.safeParse(diagnosis);
  if (!result.success) expect.fail(`not a valid Diagnosis: ${result.error.message}`);
}

/** Splits bytes at the given offsets (sorted, deduplicated), as a stream's chunks would arrive. */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(from, point));
    from = point;
  }
  return chunks;
}

/** Fragments of real logs, so that random input reaches the traceback and wrapper logic, not only junk. */
const logFragment = fc.oneof(
  fc.constantFrom(
    'Traceback (most recent call last):',
    '  File "/x/vllm/model_executor/models/llama.py", line 12, in forward',
    '    return self.mlp(x)',
    'RuntimeError: CUDA error: out of memory',
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.',
    'The above exception was the direct cause of the following exception:',
    'During handling of the above exception, another exception occurred:',
    '(Worker_TP3 pid=44) ERROR 02-20 23:33:10 [multiproc_executor.py:772] WorkerProc failed to start.',
    '(EngineCore_DP0 pid=2100) ERROR 02-20 23:33:11 [core.py:946] EngineCore failed to start.',
    'RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
    "terminate called after throwing an instance of 'c10::Error'",
    '  what():  CUDA error: an illegal memory access was encountered',
    'Feb 20 23:31:36 llm-two vllm-kimi[2001]: INFO 02-20 23:31:36 [api_server.py:1] started',
    'Feb 20 23:33:12 llm-two systemd[1]: vllm-kimi-k25.service: Main process exited, code=exited, status=1/FAILURE',
    '[rank0]: Traceback (most recent call last):',
    '[2025-03-08 12:29:04 TP0] Scheduler hit an exception: Traceback (most recent call last):',
    'Error: ShardCannotStart',
    "thread 'main' panicked at src/main.rs:1:1:",
    'panic: runtime error: invalid memory address or nil pointer dereference',
    'Segmentation fault (core dumped)',
    '\u001b[0;36m(APIServer pid=1)\u001b[0m INFO ok',
    'svc-1  | ERROR: [Errno 98] address already in use',
    '',
  ),
  fc.string({ maxLength: 60 }),
);
const logLike = fc
  .array(fc.tuple(logFragment, fc.constantFrom('\n', '\r\n', '\r', '\n\n')), { maxLength: 60 })
  .map((parts) => parts.map(([text, end]) => text + end).join(''));

describe('diagnose() on any input', () => {
  it('returns exactly the fields the schema describes (update diagnosis-schema.ts when adding one)', () => {
    expect(Object.keys(diagnose('')).sort()).toEqual([...DIAGNOSIS_KEYS].sort());
  });

  it('never throws and returns a valid Diagnosis, for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        const diagnosis = diagnose(bytes);
        expectValid(diagnosis);
        expect(diagnosis.input.bytes).toBe(bytes.length);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws and returns a valid Diagnosis, for any text built from log fragments', () => {
    fc.assert(
      fc.property(logLike, (text) => {
        expectValid(diagnose(text));
      }),
      { numRuns: 500 },
    );
  });

  it('does not depend on where the chunks of a stream break', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          logLike.map((t) => encoder.encode(t)),
          fc.uint8Array({ maxLength: 2048 }),
        ),
        fc.array(fc.nat(), { maxLength: 12 }),
        (bytes, cuts) => {
          const session = createDiagnosisSession();
          for (const chunk of split(bytes, cuts)) session.push(chunk);
          expect(session.end()).toEqual(diagnose(bytes));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('tracebacks interleaved across processes', () => {
  const streams = workerStreams();
  const inOrder = diagnose([...streams.flat(), ...AFTERMATH].join('\n'));

  it('are grouped into one root cause when printed one after the other', () => {
    expect(inOrder.rootCause).toMatchObject({
      exception: 'RuntimeError',
      message: expect.stringContaining(
        'flashinfer-cubin version (0.6.3) does not match flashinfer version (0.6.4)',
      ) as unknown,
    });
    expect(inOrder.rootCause?.processes).toHaveLength(WORKER_COUNT);
  });

  it('give the same root cause and groups whatever the interleaving', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 200, maxLength: 200 }), (picks) => {
        const shuffled = diagnose([...interleave(streams, picks), ...AFTERMATH].join('\n'));
        expectValid(shuffled);
        expect(shuffled.rootCause?.exception).toBe(inOrder.rootCause?.exception);
        expect(shuffled.rootCause?.message).toBe(inOrder.rootCause?.message);
        expect([...(shuffled.rootCause?.processes ?? [])].sort()).toEqual(
          [...(inOrder.rootCause?.processes ?? [])].sort(),
        );
        expect(shuffled.groups).toHaveLength(inOrder.groups.length);
      }),
      { numRuns: 200 },
    );
  });
});
