import { closeSync, openSync, readSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { PLANTED, generateJournal } from '../../bench/generate-journal.mjs';
import { diagnose, diagnoseFrom, diagnoseStream } from '../../src/diagnosis/index.js';
import { prescanBlock, type Prescan } from '../../src/diagnosis/prescan/prescan-block.js';
import type { PrescanHelper, StartPrescanHelper } from '../../src/diagnosis/prescan/prescan-helper.js';
import {
  BY_SESSION,
  DONE,
  POSTED,
  STOP,
  WORKING,
  claimSlot,
  clearAfterBlock,
  layOutSlots,
  markPending,
  slotBlock,
  readPrescan,
  slotState,
  type HelperData,
} from '../../src/diagnosis/prescan/shared-slots.js';
import { runHelper } from '../../src/system/prescan-worker.js';

/**
 * A helper on this thread that searches each block when it is posted, and answers as the real one may:
 * with its prescan, with 'self' (not begun: the session searches it), with null (it could not), or busy.
 */
class InThreadHelper implements PrescanHelper {
  readonly taken: (Prescan | 'self' | null)[] = [];
  private readonly blocks: Buffer[];
  private readonly found = new Map<number, Prescan>();
  private posted = 0;
  closed = false;

  constructor(
    slots: number,
    blockBytes: number,
    private readonly maxLineLength: number,
    private readonly answer: (sequence: number) => 'prescan' | 'self' | 'none' | 'busy',
  ) {
    this.blocks = Array.from({ length: slots }, () => Buffer.alloc(blockBytes));
  }

  nextBlock(): { block: Buffer; sequence: number } {
    return { block: this.blocks[this.posted % this.blocks.length] as Buffer, sequence: this.posted };
  }

  post(sequence: number, length: number): void {
    const block = (this.blocks[sequence % this.blocks.length] as Buffer).subarray(0, length);
    this.found.set(sequence, prescanBlock(block, this.maxLineLength));
    this.posted = sequence + 1;
  }

  take(sequence: number): Prescan | 'self' | null {
    const how = this.answer(sequence);
    const result = how === 'self' ? 'self' : how === 'none' ? null : (this.found.get(sequence) ?? null);
    this.taken.push(result);
    return result;
  }

  isBusyWith(sequence: number): boolean {
    return this.answer(sequence) === 'busy';
  }

  claimed = 0;

  claim(sequence: number): boolean {
    if (this.answer(sequence) !== 'self') return false;
    this.claimed++;
    return true;
  }

  close(): void {
    this.closed = true;
  }
}

let log: Buffer;
let logPath: string;

beforeAll(async () => {
  logPath = join(await mkdtemp(join(tmpdir(), 'vigil-helper-')), 'journal.log');
  await generateJournal({ size: 40_000_000, out: logPath });
  log = await readFile(logPath);
});

function* chunksOf(bytes: Buffer, size: number): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

function streamOf(bytes: Buffer, size: number): AsyncIterable<Buffer> {
  return Readable.from(chunksOf(bytes, size)) as AsyncIterable<Buffer>;
}

const withoutInput = (d: ReturnType<typeof diagnose>) => JSON.stringify({ ...d, input: null });

describe('a helper that searches ahead changes no diagnosis', () => {
  const answers = {
    'every block searched by the helper': () => 'prescan' as const,
    'some left to the session, some failed, some busy': (sequence: number) =>
      (['prescan', 'self', 'none', 'busy', 'prescan'] as const)[sequence % 5] ?? 'prescan',
  };

  for (const [name, answer] of Object.entries(answers)) {
    it(name, async () => {
      for (const closeReadBytes of [undefined, 0]) {
        const helpers: InThreadHelper[] = [];
        const startHelper: StartPrescanHelper = (slots, blockBytes, maxLineLength) => {
          const helper = new InThreadHelper(slots, blockBytes, maxLineLength, answer);
          helpers.push(helper);
          return helper;
        };
        const options = closeReadBytes === undefined ? {} : { closeReadBytes };
        const plain = diagnose(log, options);
        const helped = await diagnoseStream(streamOf(log, 1 << 20), { ...options, startHelper });
        expect(helpers).toHaveLength(1);
        expect(helpers[0]?.closed).toBe(true);
        // The helper was asked for the blocks of the serving stretch, and its prescans were used.
        expect(helpers[0]?.taken.filter((t) => t !== null && t !== 'self').length).toBeGreaterThan(5);
        // While the helper is busy with a block, the session searches a later one itself.
        if (name.startsWith('some') && closeReadBytes === undefined) {
          expect(helpers[0]?.claimed).toBeGreaterThan(0);
        }
        expect(withoutInput(helped)).toBe(withoutInput(plain));
        expect(helped.input).toEqual(plain.input);
        expect(helped.rootCause?.exception).toBe(PLANTED.exception);
      }
    });
  }

  it('is not started for a log shorter than it pays for', async () => {
    let started = 0;
    const startHelper: StartPrescanHelper = () => {
      started++;
      return null;
    };
    await diagnoseStream(streamOf(log.subarray(0, 8 << 20), 1 << 20), { startHelper });
    expect(started).toBe(0);
  });

  it('when it cannot start, the session reads alone', async () => {
    const helped = await diagnoseStream(streamOf(log, 1 << 20), { startHelper: () => null });
    expect(withoutInput(helped)).toBe(withoutInput(diagnose(log)));
  });
});

describe('the helper thread of the build (dist/system/prescan-thread.js)', () => {
  it('gives the diagnosis the session gives alone', async () => {
    // The worker runs the compiled script beside it: `npm test` builds before it tests.
    const dist = join(import.meta.dirname, '../../dist');
    const thread = (await import(join(dist, 'system/prescan-thread.js'))) as {
      startPrescanThread: StartPrescanHelper;
    };
    const built = (await import(join(dist, 'diagnosis/index.js'))) as {
      diagnoseStream: typeof diagnoseStream;
    };
    let helper: PrescanHelper | null = null;
    const startHelper: StartPrescanHelper = (...args) => (helper = thread.startPrescanThread(...args));
    const helped = await built.diagnoseStream(streamOf(log, 1 << 20), { startHelper });
    expect(helper).not.toBeNull();
    const alone = await built.diagnoseStream(streamOf(log, 1 << 20));
    expect(JSON.stringify(helped)).toBe(JSON.stringify(alone));
    expect(helped.rootCause?.exception).toBe(PLANTED.exception);
  });

  it('and when the file is read straight into its shared blocks (diagnoseFrom, as the CLI reads)', async () => {
    const dist = join(import.meta.dirname, '../../dist');
    const thread = (await import(join(dist, 'system/prescan-thread.js'))) as {
      startPrescanThread: StartPrescanHelper;
    };
    const built = (await import(join(dist, 'diagnosis/index.js'))) as {
      diagnoseFrom: typeof diagnoseFrom;
      diagnoseStream: typeof diagnoseStream;
    };
    const shared: boolean[] = [];
    const fd = openSync(logPath, 'r');
    try {
      const helped = built.diagnoseFrom(
        (target) => {
          shared.push(target.buffer instanceof SharedArrayBuffer);
          return readSync(fd, target, 0, target.length, null);
        },
        { startHelper: thread.startPrescanThread },
      );
      // After the first 16 MiB the reads land in the helper's shared blocks.
      expect(shared.filter(Boolean).length).toBeGreaterThan(10);
      const alone = await built.diagnoseStream(streamOf(log, 1 << 20));
      expect(JSON.stringify(helped)).toBe(JSON.stringify(alone));
    } finally {
      closeSync(fd);
    }
  });
});

describe('blocks the session searches ahead, while the helper is busy, are read like the others', () => {
  const BANNER = 'INFO 02-20 23:30:00 [api_server.py:1] vLLM API server version 0.11.0';
  const READY = 'INFO:     Application startup complete.';
  const chatter = (bytes: number, tag: number): string[] => {
    const lines: string[] = [];
    for (let size = 0, i = 0; size < bytes; i++) {
      const line = `(APIServer pid=7) INFO 02-20 23:31:00 [loggers.py:123] run ${tag} step ${i} took 12 ms`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines;
  };
  const crash = (tag: number): string[] => [
    `(Worker_TP1 pid=9) ERROR 02-20 23:40:00 [multiproc_executor.py:671] Traceback (most recent call last):`,
    `(Worker_TP1 pid=9) ERROR 02-20 23:40:00 [multiproc_executor.py:671]   File "/x/run${tag}.py", line 3, in run`,
    `(Worker_TP1 pid=9) ERROR 02-20 23:40:00 [multiproc_executor.py:671] RuntimeError: crash number ${tag}`,
    '(APIServer pid=7) ERROR 02-20 23:40:01 [core_client.py:1] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue.',
  ];

  it.each([20, 21])('a crash %i MiB into a long log is found', async (mib) => {
    // The helper starts after 16 MiB; every odd block is then searched by the session while the helper is
    // busy with an even one, so of the two positions one crash lies in a block the session searched.
    const parts = [[BANNER, READY], chatter(mib << 20, 1), crash(1), chatter(6 << 20, 2)];
    const text = Buffer.from(`${parts.map((part) => part.join('\n')).join('\n')}\n`);
    const startHelper: StartPrescanHelper = (slots, blockBytes, maxLineLength) =>
      new InThreadHelper(slots, blockBytes, maxLineLength, (sequence) =>
        sequence % 2 === 0 ? 'busy' : 'self',
      );
    const helped = await diagnoseStream(streamOf(text, 1 << 20), { startHelper });
    const alone = diagnose(text);
    expect(alone.rootCause?.message).toContain('crash number 1');
    expect(withoutInput(helped)).toBe(withoutInput(alone));
  });
});

describe('the helper thread’s loop (system/prescan-worker.ts), run on this thread', () => {
  /** Shared memory for `count` blocks, each posted with `text`, as the session would write them. */
  function postBlocks(texts: string[]): HelperData {
    const data = layOutSlots(texts.length, 1 << 16, 64 * 1024);
    if (data === null) throw new Error('shared WebAssembly memory is missing here');
    texts.forEach((text, i) => {
      const slot = data.slots[i] as { result: SharedArrayBuffer };
      const block = slotBlock(data, i);
      const length = block.write(text, 'latin1');
      clearAfterBlock(block, length);
      markPending(new Int32Array(slot.result), length);
    });
    const control = new Int32Array(data.control);
    Atomics.store(control, POSTED, texts.length);
    Atomics.store(control, STOP, 1);
    return data;
  }

  const state = (data: HelperData, i: number) =>
    slotState(new Int32Array((data.slots[i] as { result: SharedArrayBuffer }).result));

  it('searches each posted block into its slot', () => {
    // A block's first line is the end of the one before it: the search begins after it.
    const data = postBlocks(['end of a line\nRuntimeError: x\nok\n', 'b\nc\n']);
    runHelper(data);
    expect([state(data, 0), state(data, 1)]).toEqual([DONE, DONE]);
    const first = readPrescan(new Int32Array((data.slots[0] as { result: SharedArrayBuffer }).result));
    expect(first.lines).toBe(2);
    expect(first.hits.length).toBe(1);
  });

  it('gives a block it fails on back to the session at once, and leaves the rest to it', () => {
    const data = postBlocks(['a\n', 'b\n', 'c\n']);
    let calls = 0;
    runHelper(data, (block, maxLineLength) => {
      if (++calls === 2) throw new Error('a bug in the search');
      return prescanBlock(block, maxLineLength);
    });
    // Done, given back (neither done nor being searched: the session does not wait), never begun.
    expect(state(data, 0)).toBe(DONE);
    expect([DONE, WORKING]).not.toContain(state(data, 1));
    expect(
      claimSlot(new Int32Array((data.slots[2] as { result: SharedArrayBuffer }).result), BY_SESSION),
    ).toBe(true);
  });
});
