import type { Prescan } from './prescan-block.js';

/**
 * A helper that searches the session's blocks for signs of death while the session reads the blocks
 * before them (system/prescan-thread.ts runs one on a worker thread). Blocks are numbered in the order
 * they are written; the helper works through them in that order.
 */
export interface PrescanHelper {
  /** The block to write next; it must be posted before the one after is asked for. */
  nextBlock(): { block: Buffer; sequence: number };
  post(sequence: number, length: number): void;
  /**
   * The block's prescan, waited for while the helper searches it; 'self' when the helper had not begun it
   * and now the session searches it itself; null when the helper cannot give one (the session searches).
   */
  take(sequence: number): Prescan | 'self' | null;
  /** Whether the helper is searching this block now. */
  isBusyWith(sequence: number): boolean;
  /** Takes a posted block the helper has not begun, for the session to search itself. */
  claim(sequence: number): boolean;
  close(): void;
}

/** Starts a helper with `slots` blocks of `blockBytes`, or gives null where it cannot run. */
export type StartPrescanHelper = (
  slots: number,
  blockBytes: number,
  maxLineLength: number,
) => PrescanHelper | null;
