import { describe, expect, it } from 'vitest';
import type { Prescan } from './prescan-block.js';
import {
  BY_SESSION,
  DONE,
  RESULT_WORDS,
  WORKING,
  claimSlot,
  failSlot,
  markPending,
  readPrescan,
  slotState,
  writePrescan,
} from './shared-slots.js';

const prescan = (hits: number): Prescan => ({
  start: 10,
  end: 900,
  hasCarriageReturn: false,
  lines: 40,
  hits: Int32Array.from({ length: hits }, (_, i) => 20 + i),
  linesBefore: Int32Array.from({ length: hits }, (_, i) => i),
  longLines: new Int32Array(0),
});

/** A slot posted with a block and taken by the helper. */
function workingSlot(): Int32Array {
  const result = new Int32Array(new SharedArrayBuffer(4 * RESULT_WORDS));
  markPending(result, 1000);
  expect(claimSlot(result, WORKING)).toBe(true);
  return result;
}

describe('a slot the helper searched', () => {
  it('holds the prescan, done', () => {
    const result = workingSlot();
    writePrescan(result, prescan(3));
    expect(slotState(result)).toBe(DONE);
    expect(readPrescan(result)).toEqual(prescan(3));
  });

  it('with more hits than it holds, goes back to the session', () => {
    const result = workingSlot();
    writePrescan(result, prescan(40_000));
    expect([DONE, WORKING]).not.toContain(slotState(result));
  });

  it.each([
    ['its prescan', (result: Int32Array) => writePrescan(result, prescan(3))],
    ['its failure', (result: Int32Array) => failSlot(result)],
  ])('that the session wrote a new block into after it stopped waiting is not marked by %s', (_, finish) => {
    const result = workingSlot();
    // The session gave up on the helper and posted the slot's next block.
    markPending(result, 500);
    finish(result);
    expect(claimSlot(result, BY_SESSION)).toBe(true);
  });
});
