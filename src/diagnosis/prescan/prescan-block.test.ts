import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prescanBlock } from './prescan-block.js';

/** A block of journal-like lines: INFO lines quoting error words, ERROR lines, tracebacks, chatter. */
const line = fc.oneof(
  fc.constantFrom(
    'vllm[1]: INFO 02-17 [logger.py:43] Received request x: prompt: why does this Error happen?',
    'vllm[1]: ERROR 02-17 [serving_chat.py:201] Error in preprocessing prompt inputs',
    'Traceback (most recent call last):',
    'systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE',
    'INFO: 10.0.0.1:5000 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
    '',
  ),
  fc.string({ maxLength: 120 }).map((text) => text.replace(/[^ -~]/g, 'x')),
);

describe('prescanBlock', () => {
  it('finds the same signs and counts the same lines whether it reads the block once or span by span', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 300 }), fc.string({ maxLength: 30 }), (lines, head) => {
        // A block begins and ends mid-line, as the scanner's do.
        const block = Buffer.from(
          `${head.replace(/\n/g, '')}\n${lines.join('\n')}\nlast line, cut`,
          'latin1',
        );
        const once = prescanBlock(block, 1 << 20);
        // No line fits in 0 characters: each span is then measured line by line.
        const counted = prescanBlock(block, 0);
        expect(once.hits).toEqual(counted.hits);
        expect(once.linesBefore).toEqual(counted.linesBefore);
        expect(once.lines).toBe(counted.lines);
        expect(once.lines).toBe(Math.max(1, lines.length));
        expect(once.longLines).toEqual(new Int32Array());
      }),
      { numRuns: 200 },
    );
  });

  it('notes the lines longer than the longest kept, read span by span', () => {
    const long = 'x'.repeat(300);
    const block = Buffer.from(`cut\nshort\n${long}\nERROR here\n${long} error\ntail`, 'latin1');
    const found = prescanBlock(block, 100);
    expect(found.hits.length).toBe(2);
    expect([...found.longLines]).toEqual([10, 10 + 301 + 11]);
    expect(found.lines).toBe(4);
  });
});
