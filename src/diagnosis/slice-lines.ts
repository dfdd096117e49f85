/** The most bytes searched as one string: small enough for V8's young generation (under 128 KiB). */
const SLICE_BYTES = 64 << 10;

/**
 * Splits [start, end) of a buffer of whole lines into slices of about `SLICE_BYTES` that end at a line's
 * end (a longer line makes its own slice). A string this small lives and dies in V8's young generation,
 * where a 1 MiB one is freed only by full collections (half the run, and 60 MiB more memory).
 */
export function* sliceLines(block: Buffer, start: number, end: number): Generator<[number, number]> {
  let from = start;
  while (from < end) {
    let to = end;
    if (from + SLICE_BYTES < end) {
      to = block.lastIndexOf(0x0a, from + SLICE_BYTES - 1) + 1;
      if (to <= from) to = block.indexOf(0x0a, from + SLICE_BYTES) + 1;
    }
    yield [from, to];
    from = to;
  }
}

/**
 * Counts the lines of `text` in [from, to), which ends at a line's start, and notes where those longer
 * than `maxLineLength` bytes start (plus `offset`): few enough to measure in characters one by one.
 */
export function countLines(
  text: string,
  from: number,
  to: number,
  maxLineLength: number,
  longStarts: number[],
  offset = 0,
): number {
  let count = 0;
  let start = from;
  while (start < to) {
    // A string's indexOf is a builtin; a Buffer's is a call into C++.
    const lf = text.indexOf('\n', start);
    if (lf - start > maxLineLength) longStarts.push(offset + start);
    count++;
    start = lf + 1;
  }
  return count;
}
