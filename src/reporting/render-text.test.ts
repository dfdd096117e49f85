import { describe, expect, it } from 'vitest';
import { diagnose } from '../diagnosis/index.js';
import { createPaint } from './paint.js';
import { renderText } from './render-text.js';

describe("the headline's second line", () => {
  it("goes on where the first stopped, even after a run of spaces (a shell's job report, fresh-m vllm-3957)", () => {
    const log =
      '[1]    3100846 segmentation fault (core dumped)  python benchmarks/benchmark_throughput.py --input-len 100\n';
    const [first = '', second = ''] = renderText(diagnose(log), createPaint(false), { width: 80 }).split(
      '\n',
    );
    const words = (text: string): string[] =>
      text
        .replace(/^✖ failure /, '')
        .trim()
        .split(/\s+/);
    expect([...words(first), ...words(second)]).toEqual(log.trim().split(/\s+/));
  });
});
