import { describe, expect, it } from 'vitest';
import { RecentLines } from './recent-lines.js';
import type { SkippedLines } from './skipped-span.js';

/**
 * A span as the block scanner hands it over: `read` gives its last lines from the block until the block
 * is written again (`overwrite`), then only if `detach` kept them first; `reads` counts the reads.
 */
function spanOf(lines: string[]): SkippedLines & { reads: number; detaches: number; overwrite(): void } {
  let detached = false;
  let gone = false;
  return {
    reads: 0,
    detaches: 0,
    read() {
      this.reads++;
      if (gone && !detached) throw new Error('read after its block was written again');
      return lines;
    },
    detach() {
      this.detaches++;
      detached = true;
    },
    countProbes: () => 0,
    overwrite() {
      gone = true;
    },
  };
}

/** One step fed to RecentLines: a line read in full, or a span of `count` lines skipped in bulk. */
type Step = string | { skip: number };

/**
 * Feeds `steps` to a RecentLines and to a plain array of every line (the model); skipped lines are named
 * `s<i>` by their position in the log, and each span's reader returns the last min(count, keep) of its
 * lines, as the block scanner's does. Returns the window, the model and the readers' call counts.
 */
function feed(keep: number, steps: Step[], prepare: (raw: string) => string = (raw) => raw) {
  const recent = new RecentLines(keep, prepare);
  const all: string[] = [];
  const calls: number[] = [];
  for (const step of steps) {
    if (typeof step === 'string') {
      recent.push(step);
      all.push(step);
      continue;
    }
    const span = Array.from({ length: step.skip }, (_, i) => `s${all.length + i + 1}`);
    all.push(...span);
    const index = calls.length;
    calls.push(0);
    const reader = spanOf(span.slice(-Math.min(step.skip, keep)));
    recent.pushSkipped(step.skip, {
      countProbes: () => 0,
      read: () => {
        calls[index] = (calls[index] ?? 0) + 1;
        return reader.read();
      },
      detach: () => reader.detach(),
    });
  }
  return { recent, all, calls };
}

describe('RecentLines', () => {
  const windows: { name: string; keep: number; steps: Step[] }[] = [
    { name: 'nothing pushed', keep: 5, steps: [] },
    { name: 'fewer lines than kept', keep: 5, steps: ['a', 'b'] },
    { name: 'pushed lines only, past keep', keep: 3, steps: ['a', 'b', 'c', 'd', 'e'] },
    { name: 'one short skipped span', keep: 5, steps: [{ skip: 2 }] },
    { name: 'one skipped span longer than kept', keep: 5, steps: [{ skip: 12 }] },
    { name: 'a line after a long span', keep: 5, steps: [{ skip: 12 }, 'a'] },
    { name: 'a long span after lines', keep: 4, steps: ['a', 'b', { skip: 9 }] },
    { name: 'a span straddling the window', keep: 5, steps: ['a', { skip: 3 }, 'b', 'c', 'd'] },
    {
      name: 'interleaved lines and spans',
      keep: 6,
      steps: ['a', { skip: 2 }, 'b', { skip: 1 }, 'c', 'd', { skip: 4 }, 'e', { skip: 3 }],
    },
    { name: 'many short spans', keep: 4, steps: [{ skip: 1 }, { skip: 2 }, { skip: 1 }, { skip: 3 }, 'z'] },
    { name: 'empty spans are nothing', keep: 3, steps: ['a', { skip: 0 }, 'b', { skip: 0 }] },
    { name: 'keep of one', keep: 1, steps: ['a', { skip: 3 }, 'b', { skip: 2 }] },
    {
      name: 'the session’s size: 40 kept, spans of 40',
      keep: 40,
      steps: [{ skip: 100 }, 'x', { skip: 39 }, 'y', { skip: 40 }, 'z', { skip: 7 }],
    },
  ];

  it.each(windows)('keeps exactly the last `keep` lines in order: $name', ({ keep, steps }) => {
    const { recent, all } = feed(keep, steps);
    const expected = all.slice(-keep);
    expect(recent.last()).toEqual(expected);
    expect(recent.last(keep)).toEqual(expected);
    for (let count = 0; count <= keep; count++) {
      expect(recent.last(count)).toEqual(count === 0 ? [] : all.slice(-count));
    }
    // Asked for more than `keep`, it gives `keep`: what it holds beyond is the rest of a span, not kept.
    for (let count = keep + 1; count <= keep + 3; count++) expect(recent.last(count)).toEqual(expected);
    for (let back = 1; back <= keep; back++) expect(recent.at(back)).toBe(all[all.length - back]);
  });

  it.each([
    { keep: 3, steps: ['a', 'b', 'c', 'd', 'e'] as Step[], back: 4 },
    { keep: 3, steps: [{ skip: 10 }] as Step[], back: 4 },
    { keep: 3, steps: ['a', { skip: 10 }, 'b'] as Step[], back: 4 },
    { keep: 3, steps: ['a', { skip: 10 }, 'b'] as Step[], back: 10 },
    { keep: 40, steps: [{ skip: 1000 }] as Step[], back: 41 },
    // The window still holds a span that reaches past `keep`: its older lines are forgotten all the same.
    { keep: 40, steps: [{ skip: 1000 }, 'x'] as Step[], back: 41 },
  ])('at(back) past keep is undefined, even when the log had that line ($keep kept, back $back)', (row) => {
    const { recent, all } = feed(row.keep, row.steps);
    expect(all.length).toBeGreaterThanOrEqual(row.back);
    expect(recent.at(row.back)).toBeUndefined();
    expect(recent.at(row.keep)).toBe(all[all.length - row.keep]);
  });

  it.each([
    { keep: 5, steps: ['a', 'b'] as Step[], back: 3 },
    { keep: 5, steps: [] as Step[], back: 1 },
    { keep: 5, steps: [{ skip: 2 }] as Step[], back: 3 },
  ])('at(back) before the log began is undefined ($back back of $steps.length steps)', (row) => {
    const { recent } = feed(row.keep, row.steps);
    expect(recent.at(row.back)).toBeUndefined();
    expect(recent.at(0)).toBeUndefined();
    expect(recent.at(-1)).toBeUndefined();
  });

  it('reads a skipped span only when its lines are asked for, and once', () => {
    const { recent, calls } = feed(5, ['a', { skip: 3 }, 'b', { skip: 8 }]);
    expect(calls).toEqual([0, 0]);
    // The first span has left the window already; the last one is read when its lines are first asked for.
    expect(recent.at(1)).toBe('s13');
    expect(calls).toEqual([0, 1]);
    expect(recent.last()).toEqual(['s9', 's10', 's11', 's12', 's13']);
    expect(calls).toEqual([0, 1]);
    for (let i = 0; i < 3; i++) {
      recent.last();
      recent.at(5);
    }
    expect(calls).toEqual([0, 1]);
  });

  it('does not read an older span that last(n) does not reach', () => {
    const { recent, calls } = feed(10, [{ skip: 4 }, 'a', 'b', 'c']);
    expect(recent.last(3)).toEqual(['a', 'b', 'c']);
    expect(recent.at(2)).toBe('b');
    expect(calls).toEqual([0]);
    expect(recent.last(4)).toEqual(['s4', 'a', 'b', 'c']);
    expect(calls).toEqual([1]);
  });

  it('never reads a span pushed out of the window before anyone asked', () => {
    const { recent, calls } = feed(3, [{ skip: 5 }, 'a', { skip: 2 }, 'b', 'c', 'd']);
    expect(recent.last()).toEqual(['b', 'c', 'd']);
    recent.settle();
    expect(calls).toEqual([0, 0]);
  });

  it('settle() detaches every span still kept, so its lines can still be read after the block is gone', () => {
    const keep = 6;
    const recent = new RecentLines(keep, (raw) => raw);
    const spans = [spanOf(['p2', 'p3']), spanOf(['q1', 'q2', 'q3'])] as const;
    recent.push('p1');
    recent.pushSkipped(2, spans[0]);
    recent.pushSkipped(3, spans[1]);
    recent.settle();
    expect(spans.map((span) => [span.detaches, span.reads])).toEqual([
      [1, 0],
      [1, 0],
    ]);
    for (const span of spans) span.overwrite();
    expect(recent.last()).toEqual(['p1', 'p2', 'p3', 'q1', 'q2', 'q3']);
    for (let back = 1; back <= keep; back++) recent.at(back);
    recent.push('r');
    recent.settle();
    expect(recent.last()).toEqual(['p2', 'p3', 'q1', 'q2', 'q3', 'r']);
    // Read once, when first asked for; a span already read is not detached again.
    expect(spans.map((span) => [span.detaches, span.reads])).toEqual([
      [1, 1],
      [1, 1],
    ]);
  });

  it('settle() does not detach a span pushed after it, nor one that left the window', () => {
    const recent = new RecentLines(3, (raw) => raw);
    const old = spanOf(['o1', 'o2', 'o3']);
    recent.pushSkipped(3, old);
    recent.push('a');
    recent.push('b');
    recent.push('c');
    recent.settle();
    expect(old.detaches).toBe(0);
    const later = spanOf(['later']);
    recent.pushSkipped(1, later);
    expect(later.detaches).toBe(0);
    expect(recent.last()).toEqual(['b', 'c', 'later']);
    expect(later.reads).toBe(1);
  });

  it('applies `prepare` to skipped lines only, once each', () => {
    const prepared: string[] = [];
    const { recent, calls } = feed(8, ['a', { skip: 3 }, 'b', { skip: 2 }, 'c'], (raw) => {
      prepared.push(raw);
      return `<${raw}>`;
    });
    expect(prepared).toEqual([]);
    expect(recent.last()).toEqual(['a', '<s2>', '<s3>', '<s4>', 'b', '<s6>', '<s7>', 'c']);
    recent.last();
    recent.settle();
    expect(prepared.sort()).toEqual(['s2', 's3', 's4', 's6', 's7']);
    expect(calls).toEqual([1, 1]);
  });
});
