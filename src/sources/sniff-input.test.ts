import { describe, expect, it } from 'vitest';
import { sniffInput, type InputKind } from './sniff-input.js';

const bytes = (...values: number[]): Buffer => Buffer.from(values);
const text = (value: string): Buffer => Buffer.from(value);

describe('sniffInput', () => {
  it.each<[string, Buffer, boolean, InputKind['kind'], string?]>([
    ['a log line', text('INFO 02-20 23:31:07 starting\n'), true, 'text'],
    ['a log cut at the head', text('INFO x\n'.repeat(2000)), false, 'text'],
    ['gzip', bytes(0x1f, 0x8b, 8, 0), false, 'gzip'],
    ['xz', bytes(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0), false, 'compressed'],
    ['bzip2', text('BZh91AY&SY'), false, 'compressed'],
    ['zstd', bytes(0x28, 0xb5, 0x2f, 0xfd, 0), false, 'compressed'],
    ['a journal file', text('LPKSHHRH\0\0\0'), false, 'journal-file'],
    [
      'UTF-16 LE with a BOM',
      Buffer.concat([bytes(0xff, 0xfe), Buffer.from('INFO x\r\n', 'utf16le')]),
      true,
      'utf-16',
    ],
    ['UTF-16 LE without one', Buffer.from('INFO starting the server\r\n', 'utf16le'), true, 'utf-16'],
    [
      'UTF-16 LE of a log in Chinese',
      Buffer.concat([
        bytes(0xff, 0xfe),
        Buffer.from('2024-05-01 10:00:01 错误: 模型加载失败\r\n'.repeat(4), 'utf16le'),
      ]),
      true,
      'utf-16',
    ],
    [
      'random bytes that start like a UTF-16 LE BOM',
      Buffer.concat([
        bytes(0xff, 0xfe),
        Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919 + 13) % 251)),
      ]),
      false,
      'refused',
      'binary',
    ],
    [
      'random bytes that start like a UTF-16 BE BOM',
      Buffer.concat([
        bytes(0xfe, 0xff),
        Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 104729 + 7) % 241)),
      ]),
      false,
      'refused',
      'binary',
    ],
    ['empty', Buffer.alloc(0), true, 'refused', 'is empty'],
    ['NUL bytes only', Buffer.alloc(64), true, 'refused', 'only NUL'],
    [
      'NUL bytes, then a log (copytruncate)',
      Buffer.concat([Buffer.alloc(4000), text('INFO x\n')]),
      true,
      'text',
    ],
    [
      // fresh-l ollama-3764: a second server truncated the file and wrote its line; the first kept its offset.
      'a line, a hole of NUL bytes, then the log',
      Buffer.concat([
        text('Error: listen tcp 127.0.0.1:11434: bind: address already in use\n'),
        Buffer.alloc(3242),
        text('time=2025-07-01T10:00:00.000Z level=INFO source=routes.go:1235 msg="server config"\n'),
      ]),
      false,
      'text',
    ],
    ['an ELF program', bytes(0x7f, 0x45, 0x4c, 0x46, 2, 1, 1), false, 'refused', 'ELF'],
    [
      'control bytes',
      Buffer.from(Array.from({ length: 400 }, (_, i) => (i * 7) % 32)),
      false,
      'refused',
      'binary',
    ],
    ['blank lines', text('\n \n\t\n'), true, 'refused', 'blank'],
    ['-- No entries --', text('-- No entries --\n'), true, 'refused', 'No entries'],
    ['a boot banner alone', text('-- Boot 0123abcd --\n'), true, 'refused', 'notices'],
    ['-- No entries -- with more to come', text('-- No entries --\n'), false, 'text'],
    ['latin-1 bytes in a log', text('INFO caf\xe9 ok\n'.repeat(20)), true, 'text'],
  ])('%s', (_name, head, complete, kind, reason) => {
    const sniffed = sniffInput(head, complete);
    expect(sniffed.kind).toBe(kind);
    if (reason !== undefined && sniffed.kind === 'refused') expect(sniffed.reason).toContain(reason);
  });

  // What counts as binary, one character at a time: 40 of it after 60 letters is over the 30 % share.
  // NUL is no character of a log but a hole in its file (a truncation under a writer): what is around it is judged.
  const binary = (code: number): boolean =>
    code === 0xfffd ||
    code === 0x7f ||
    (code < 0x20 && ![0x00, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b].includes(code));
  it.each([...Array.from({ length: 0x80 }, (_, code) => code), 0xe9, 0xfffd, 0x1f600])(
    'character U+%s is binary only if it is a control character no log holds',
    (code) => {
      const head = Buffer.concat([
        text('x'.repeat(60)),
        text(String.fromCodePoint(code).repeat(40)),
        text('\n'),
      ]);
      expect(sniffInput(head, false).kind).toBe(binary(code) ? 'refused' : 'text');
    },
  );
});
