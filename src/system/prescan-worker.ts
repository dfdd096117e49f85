import { workerData } from 'node:worker_threads';
import { prescanBlock } from '../diagnosis/prescan/prescan-block.js';
import {
  POSTED,
  STOP,
  WORKING,
  claimSlot,
  failSlot,
  writePrescan,
  slotBlock,
  slotLength,
  type HelperData,
} from '../diagnosis/prescan/shared-slots.js';
import { searchInPlace } from '../diagnosis/signs-of-death.js';

/**
 * The helper thread: searches each block the session posts, in order, into the block's slot. A block it
 * fails on goes back to the session, and so do all after it: the session's synchronous reading cannot
 * hear of a dead thread, and would wait out its deadline for the block the helper held.
 */
export function runHelper(data: HelperData, prescan: typeof prescanBlock = prescanBlock): void {
  const control = new Int32Array(data.control);
  searchInPlace(data.memory, data.helperBase);
  const slots = data.slots.map((slot, index) => ({
    data: slotBlock(data, index),
    result: new Int32Array(slot.result),
  }));
  for (let sequence = 0; ; sequence++) {
    for (;;) {
      const posted = Atomics.load(control, POSTED);
      if (posted > sequence) break;
      if (Atomics.load(control, STOP) !== 0) return;
      Atomics.wait(control, POSTED, posted, 500);
    }
    const slot = slots[sequence % slots.length];
    if (slot === undefined) return;
    // The session searches a block itself when it gets there first.
    if (!claimSlot(slot.result, WORKING)) continue;
    const length = slotLength(slot.result);
    try {
      writePrescan(slot.result, prescan(slot.data.subarray(0, length), data.maxLineLength));
    } catch {
      failSlot(slot.result);
      return;
    }
  }
}

if (workerData !== null && typeof workerData === 'object' && 'control' in workerData)
  runHelper(workerData as HelperData);
