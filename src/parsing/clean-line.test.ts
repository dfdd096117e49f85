import { describe, expect, it } from 'vitest';
import { cleanLine } from './clean-line.js';

describe('cleanLine', () => {
  it.each([
    ['\u001b[0;36m(APIServer pid=21)\u001b[0;0m INFO x', '(APIServer pid=21) INFO x'],
    ['#033[2mINFO#033[0m x', 'INFO x'],
    ['ERROR x\r', 'ERROR x'],
    // A waiting loop's dots, then the next line glued to them (fresh-u sglang-5650).
    [
      '................2025-12-31 10:49:41.425469 error 27260 pid[1807] [AccLink x.h:504] Failed to send message',
      '2025-12-31 10:49:41.425469 error 27260 pid[1807] [AccLink x.h:504] Failed to send message',
    ],
    // Dots that are the line's own words stay.
    ['... 2025-12-31 is the date', '... 2025-12-31 is the date'],
    ['...', '...'],
  ])('%j', (raw, clean) => {
    expect(cleanLine(raw)).toBe(clean);
  });
});
