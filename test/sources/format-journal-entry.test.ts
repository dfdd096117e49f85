import { describe, expect, it } from 'vitest';
import { formatJournalEntry, formatTimestamp } from '../../src/sources/journal/format-journal-entry.js';

const AT = '1771630296123456'; // 2026-02-20 23:31:36.123456 UTC

describe('formatJournalEntry', () => {
  it.each([
    [
      'a plain entry',
      {
        __REALTIME_TIMESTAMP: AT,
        _HOSTNAME: 'llm-two',
        SYSLOG_IDENTIFIER: 'vllm-kimi',
        _PID: '12345',
        MESSAGE: 'INFO x',
      },
      'Feb 20 23:31:36 llm-two vllm-kimi[12345]: INFO x\n',
    ],
    [
      'a multi-line message, one prefix per line, no empty last line',
      { __REALTIME_TIMESTAMP: AT, _HOSTNAME: 'h', SYSLOG_IDENTIFIER: 'p', _PID: '1', MESSAGE: 'a\n  b\n' },
      'Feb 20 23:31:36 h p[1]: a\nFeb 20 23:31:36 h p[1]:   b\n',
    ],
    [
      'bytes that are not UTF-8',
      {
        __REALTIME_TIMESTAMP: AT,
        _HOSTNAME: 'h',
        SYSLOG_IDENTIFIER: 'p',
        _PID: '2',
        MESSAGE: [104, 105, 0xff],
      },
      'Feb 20 23:31:36 h p[2]: hi\uFFFD\n',
    ],
    [
      'a repeated field: its first value',
      { __REALTIME_TIMESTAMP: AT, _HOSTNAME: 'h', SYSLOG_IDENTIFIER: ['p', 'q'], MESSAGE: ['one', 'two'] },
      'Feb 20 23:31:36 h p: one\n',
    ],
    [
      'no identifier, host or pid: _COMM, localhost, no brackets',
      { __REALTIME_TIMESTAMP: AT, _COMM: 'python3', MESSAGE: 'x' },
      'Feb 20 23:31:36 localhost python3: x\n',
    ],
    [
      'SYSLOG_PID when _PID is absent; an empty message',
      { __REALTIME_TIMESTAMP: AT, _HOSTNAME: 'h', SYSLOG_IDENTIFIER: 'p', SYSLOG_PID: '9' },
      'Feb 20 23:31:36 h p[9]: \n',
    ],
  ])('%s', (_what, entry, text) => expect(formatJournalEntry(entry)).toBe(text));
});

describe('formatTimestamp', () => {
  it.each([
    ['1767225600000000', 'Jan 01 00:00:00'],
    ['1772323199999999', 'Feb 28 23:59:59'],
    ['1765432109876543', 'Dec 11 05:48:29'],
    [undefined, 'Jan 01 00:00:00'],
    ['garbage', 'Jan 01 00:00:00'],
  ])('%s → %s (UTC, day zero-padded)', (micros, text) => expect(formatTimestamp(micros)).toBe(text));
});
