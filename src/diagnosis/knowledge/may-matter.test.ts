import { describe, expect, it } from 'vitest';
import { MARKERS, mayMatter, STRUCTURE, TRIGGER } from './may-matter.js';

/** What mayMatter must answer: whether any of its three patterns matches the raw line. */
const patternsMatch = (raw: string) => [TRIGGER, STRUCTURE, MARKERS].some((pattern) => pattern.test(raw));

describe('mayMatter', () => {
  it.each([
    [
      'an error level',
      'ERROR 02-17 09:12:17 [serving_chat.py:1030] Error in request chatcmpl-7498c5: too long',
      true,
    ],
    ['a lower-case error', 'RuntimeError: something went wrong: error code 3', true],
    ['error in mixed case', 'eRRoR: the device said no', true],
    ['an error word inside another', 'TypeErrorish thing', true],
    ['a mirror is no error', 'INFO syncing the mirror of the model repository', false],
    ['a traceback without the word', 'Traceback (most recent call last):', true],
    ['a start marker', 'INFO: Started server process [3190412]', true],
    ['chatter', 'INFO:     10.0.0.7:51234 - "POST /v1/chat/completions HTTP/1.1" 200 OK', false],
    // glibc's heap checks end a process with no other word (fresh-m llamacpp-3950).
    ['a heap check of malloc', 'malloc(): unaligned tcache chunk detected', true],
  ])('%s', (_name, raw, expected) => {
    expect(mayMatter(raw)).toBe(expected);
    expect(patternsMatch(raw)).toBe(expected);
  });

  it("answers `error` at once only because it is TRIGGER's own first word, case folded", () => {
    expect(TRIGGER.source.startsWith('error|')).toBe(true);
    expect(TRIGGER.flags).toContain('i');
  });
});
