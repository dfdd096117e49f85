import { describe, expect, it } from 'vitest';
import { IndentedBlock } from './indented-block.js';

const read = (lines: readonly string[]): string[] => {
  const block = new IndentedBlock();
  return [...lines.flatMap((line) => block.take(line)), ...block.release()];
};

describe('a log pasted as an indented block', () => {
  it.each([
    [
      "Markdown's four spaces come off, the log's own indent stays",
      [
        '    Traceback (most recent call last):',
        '      File "/a.py", line 1, in f',
        '        g()',
        '    RuntimeError: boom',
      ],
      ['Traceback (most recent call last):', '  File "/a.py", line 1, in f', '    g()', 'RuntimeError: boom'],
    ],
    ['a tab comes off', ['\tINFO start', '\tERROR boom'], ['INFO start', 'ERROR boom']],
    [
      'a log whose lines are not all indented is read as it is',
      ['INFO start', '    g()', 'RuntimeError: boom'],
      ['INFO start', '    g()', 'RuntimeError: boom'],
    ],
    [
      "a traceback's own frames are no block",
      ['  File "/a.py", line 1, in f', '    g()', 'RuntimeError: boom'],
      ['  File "/a.py", line 1, in f', '    g()', 'RuntimeError: boom'],
    ],
    [
      "a quote's marks come off, an empty quoted line is empty",
      ['> INFO start', '>', '>   what():  error from HF API, response code: 500'],
      ['INFO start', '', '  what():  error from HF API, response code: 500'],
    ],
    [
      'a line outside the indent is read as it is',
      ['    a', '    b', '    c', '    d', '    e', '    f', 'g', '    h'],
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
    ],
  ])('%s', (_name, lines, expected) => {
    expect(read(lines)).toEqual(expected);
  });
});
