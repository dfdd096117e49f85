import { describe, expect, it } from 'vitest';
import { diagnose } from '../diagnosis/index.js';
import { parseLine } from './parse-line.js';
import { unwrapTerminalLines } from './unwrap-lines.js';

const lines = (...texts: string[]) => texts.map((text, i) => parseLine(text, i + 1));

/** A line as the program wrote it, and as an 80-column terminal showed it. */
const WHOLE =
  'RuntimeError: CUDA error: an illegal memory access was encountered in kernel flash_attn_fwd_splitkv';
const [CUT, REST] = [WHOLE.slice(0, 80), WHOLE.slice(80)];

describe('unwrapTerminalLines', () => {
  it('joins a line cut at 80 columns with its flush-left rest', () => {
    expect(REST.startsWith(' ')).toBe(false);
    const out = unwrapTerminalLines(lines(CUT, REST, 'next'));
    expect(out.map((l) => l.raw)).toEqual([WHOLE, 'next']);
  });

  it('keeps apart lines that are not cut, or whose next line starts anew', () => {
    expect(unwrapTerminalLines(lines(`${CUT}x`, REST)).length).toBe(2);
    expect(unwrapTerminalLines(lines(CUT, '  File "/a.py", line 1, in f')).length).toBe(2);
    expect(unwrapTerminalLines(lines(CUT, 'ValueError: other')).length).toBe(2);
  });

  it('a wrapped exception message is read whole', () => {
    const log = ['Traceback (most recent call last):', '  File "/a.py", line 1, in f', CUT, REST].join('\n');
    expect(diagnose(log).rootCause?.message).toBe(WHOLE.slice('RuntimeError: '.length));
  });
});
