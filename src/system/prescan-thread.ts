import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Prescan } from '../diagnosis/prescan/prescan-block.js';
import type { PrescanHelper, StartPrescanHelper } from '../diagnosis/prescan/prescan-helper.js';
import {
  BY_SESSION,
  DONE,
  PENDING,
  WORKING,
  claimSlot,
  clearAfterBlock,
  layOutSlots,
  POSTED,
  SESSION_BASE,
  STOP,
  markPending,
  readPrescan,
  slotBlock,
  slotState,
  type HelperData,
} from '../diagnosis/prescan/shared-slots.js';
import { forgetMemory, searchInPlace } from '../diagnosis/signs-of-death.js';

/**
 * The helper's code as one script, where the build embeds it: the standalone binary has no file beside it
 * to start a worker from (scripts/build-binary.mjs defines it).
 */
declare const VIGIL_PRESCAN_WORKER: string | undefined;

/** How long the session waits for a block's search before searching it itself (the helper died). */
const WAIT_MS = 10_000;

/**
 * A helper thread that searches the session's blocks for signs of death while the session reads the
 * blocks before them. The blocks live in shared memory, so nothing is copied or moved between threads;
 * the session waits on the block's slot when it comes to read it, which is seldom long.
 */
export class PrescanThread implements PrescanHelper {
  private readonly control: Int32Array;
  private readonly data: Buffer[];
  private readonly memory: HelperData['memory'];
  private readonly results: Int32Array[];
  private posted = 0;
  private dead = false;
  /** Blocks whose search the session took from the helper (VIGIL_DEBUG=1 prints it). */
  searched = 0;

  private constructor(
    private readonly worker: Worker,
    shared: HelperData,
    /** The first block is left to the helper, however long it takes to begin (helper-pays.ts provesHelper). */
    private readonly leaveFirst: boolean,
  ) {
    this.control = new Int32Array(shared.control);
    this.memory = shared.memory;
    this.data = shared.slots.map((_, index) => slotBlock(shared, index));
    this.results = shared.slots.map((slot) => new Int32Array(slot.result));
    worker.on('error', () => (this.dead = true));
    worker.on('exit', () => (this.dead = true));
    worker.unref();
  }

  /**
   * A helper with `slots` blocks of shared memory (more than the session ever holds at once), or null where
   * its script is absent (running from the TypeScript sources).
   */
  static start(
    slots: number,
    blockBytes: number,
    maxLineLength: number,
    leaveFirst = false,
  ): PrescanThread | null {
    const script = findScript();
    if (script === null) return null;
    const shared = layOutSlots(slots, blockBytes, maxLineLength);
    if (shared === null) return null;
    // This thread searches the blocks it takes from the helper where they lie too.
    searchInPlace(shared.memory, SESSION_BASE);
    return new PrescanThread(
      new Worker(script.code, {
        eval: script.eval,
        workerData: shared,
        resourceLimits: { maxYoungGenerationSizeMb: 4 },
      }),
      shared,
      leaveFirst,
    );
  }

  /** The block to write next; it must be posted before the one after is asked for. */
  nextBlock(): { block: Buffer; sequence: number } {
    const sequence = this.posted;
    return { block: this.data[sequence % this.data.length] as Buffer, sequence };
  }

  post(sequence: number, length: number): void {
    clearAfterBlock(this.data[sequence % this.data.length] as Buffer, length);
    markPending(this.results[sequence % this.data.length] as Int32Array, length);
    this.posted = sequence + 1;
    Atomics.store(this.control, POSTED, this.posted);
    Atomics.notify(this.control, POSTED);
  }

  /**
   * The block's prescan: the helper's, waited for while it searches; 'self' when the helper has not begun
   * it, which is now the session's to search (both cores busy); null when it overflowed or the helper died.
   */
  take(sequence: number): Prescan | 'self' | null {
    const result = this.results[sequence % this.data.length] as Int32Array;
    if (!(this.leaveFirst && sequence === 0) && claimSlot(result, BY_SESSION)) return 'self';
    const deadline = Date.now() + WAIT_MS;
    // Not yet begun (only a block left to the helper is waited for so), or being searched.
    for (let state = slotState(result); state === PENDING || state === WORKING; state = slotState(result)) {
      if (this.dead || Date.now() > deadline) return null;
      Atomics.wait(result, 0, state, 50);
    }
    if (slotState(result) !== DONE) return null;
    this.searched++;
    return readPrescan(result);
  }

  /** Whether the helper is searching this block now. */
  isBusyWith(sequence: number): boolean {
    return slotState(this.results[sequence % this.data.length] as Int32Array) === WORKING;
  }

  /** Takes a posted block the helper has not begun, for the session to search itself. */
  claim(sequence: number): boolean {
    return claimSlot(this.results[sequence % this.data.length] as Int32Array, BY_SESSION);
  }

  close(): void {
    Atomics.store(this.control, STOP, 1);
    Atomics.notify(this.control, POSTED);
    void this.worker.terminate();
    forgetMemory(this.memory);
  }
}

/** The helper's embedded code, else its file beside this one; null when neither is there. */
function findScript(): { code: string | URL; eval: boolean } | null {
  if (typeof VIGIL_PRESCAN_WORKER === 'string') return { code: VIGIL_PRESCAN_WORKER, eval: true };
  const file = new URL('./prescan-worker.js', import.meta.url);
  if (file.protocol !== 'file:' || !existsSync(fileURLToPath(file))) return null;
  return { code: file, eval: false };
}

export const startPrescanThread: StartPrescanHelper = (slots, blockBytes, maxLineLength) =>
  PrescanThread.start(slots, blockBytes, maxLineLength);
