import { expect, it } from 'vitest';
import { passAnswers } from './knowledge/any-of.js';
import { createDiagnosisSession } from './session.js';

it('has the word pass answer once its log passes a mebibyte, not before', () => {
  const session = createDiagnosisSession();
  // Chatter: no line asks the knowledge lists anything, so only the log's length can switch the pass on.
  const block = Buffer.from('Feb 17 09:12:05 gpu-node-07 vllm[3190412]: serving a request\n'.repeat(4096));
  let pushed = 0;
  while (pushed + block.length <= 1 << 20) {
    session.push(block);
    pushed += block.length;
  }
  expect(passAnswers()).toBe(false);
  session.push(block);
  expect(passAnswers()).toBe(true);
  expect(session.end().verdict).toBe('no-failure');
});
