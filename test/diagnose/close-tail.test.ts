import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/index.js';

/** llama.cpp serving: lines with no word the cheap search or the close one looks for. */
const chatter = (i: number): string =>
  `Dec 01 10:00:00 host llama-server[7]: srv  update_slots: id  0 | task ${i} | prompt done, n_past = ${i % 500}\n`;
/** A cause only the close search finds: no error word, no traceback, no level. */
const BIND =
  "Dec 01 10:00:00 host llama-server[7]: main: couldn't bind HTTP server socket, hostname: 0.0.0.0, port: 8080\n";

function logWith(before: number, after: number): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < before; i++) lines.push(chatter(i));
  lines.push(BIND);
  for (let i = 0; i < after; i++) lines.push(chatter(i));
  return Buffer.from(lines.join(''));
}

const named = (bytes: Buffer, options = {}): boolean =>
  JSON.stringify(diagnose(bytes, options)).includes("couldn't bind");

// The end of a long log is read closely by lines (its last 4,000), not by the 4 MiB the scanner keeps back:
// 2 MB of chatter, the cause, then some more.
describe('the closely read end of a long log', () => {
  it('finds a cause 3,000 lines before the end as a full read does, which the cheap search alone misses', () => {
    const bytes = logWith(20_000, 3_000);
    expect(bytes.length).toBeGreaterThan(2 << 20);
    expect(named(bytes, { readEveryLine: true })).toBe(true);
    expect(named(bytes)).toBe(true);
    // The cheap search everywhere (closeReadBytes 0 keeps nothing back) would not: the line above is read
    // because it lies in the last 4,000 lines.
    expect(named(bytes, { closeReadBytes: 0 })).toBe(false);
  });
});
