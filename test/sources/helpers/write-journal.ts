import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Test helper: builds real systemd journal files from journal entries, so tests read them through the real
 * journalctl. Reused by the diagnose and watch tests; keep the exports stable.
 */

/** One journal entry: field name to value. Uint8Array values are written as binary (non-UTF-8) data. */
export type JournalFields = Record<string, string | Uint8Array>;

const CANDIDATES = [
  process.env.SYSTEMD_JOURNAL_REMOTE ?? '',
  '/lib/systemd/systemd-journal-remote',
  '/usr/lib/systemd/systemd-journal-remote',
];

/** Path of systemd-journal-remote (Debian package systemd-journal-remote), or undefined if absent. */
export const JOURNAL_REMOTE: string | undefined = CANDIDATES.find((path) => path !== '' && existsSync(path));

// Said once per test file that writes journals: the skipped tests are not silently missing.
if (JOURNAL_REMOTE === undefined) {
  console.warn(
    'skipping the tests that write journal files: install systemd-journal-remote (apt-get install systemd-journal-remote); the committed journal files in test/fixtures/journal are still read',
  );
}

/** A stable 32-hex invocation id for the n-th start (0-based), as systemd writes them. */
export function invocationIdFor(n: number): string {
  return (n + 1).toString(16).padStart(32, 'a');
}

export const TEST_BOOT_ID = '0123456789abcdef0123456789abcdef';

/** Serialises entries in the journal export format: https://systemd.io/JOURNAL_EXPORT_FORMATS/ */
export function formatJournalExport(entries: JournalFields[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    for (const [name, value] of Object.entries(entry)) {
      const binary = typeof value !== 'string' || value.includes('\n');
      if (!binary) {
        parts.push(Buffer.from(`${name}=${value}\n`));
        continue;
      }
      const data = typeof value === 'string' ? Buffer.from(value) : Buffer.from(value);
      const size = Buffer.alloc(8);
      size.writeBigUInt64LE(BigInt(data.length));
      parts.push(Buffer.from(`${name}\n`), size, data, Buffer.from('\n'));
    }
    parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

/** Writes entries to a journal file with systemd-journal-remote. The name must end in `.journal`. */
export async function writeJournalFile(entries: JournalFields[], file: string): Promise<void> {
  if (JOURNAL_REMOTE === undefined) throw new Error('systemd-journal-remote is not installed');
  const remote = JOURNAL_REMOTE;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(remote, [`--output=${file}`, '--split-mode=none', '-'], {
      stdio: ['pipe', 'ignore', 'pipe'],
      timeout: 30_000,
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`systemd-journal-remote failed (${code}): ${stderr}`)),
    );
    child.stdin.end(formatJournalExport(entries));
  });
}

export interface ShortLogOptions {
  /** Full unit name, e.g. vllm-kimi-k25.service. */
  unit: string;
  /** journald short format has no year. */
  year?: number;
}

const SHORT_LINE = /^(\w{3}) (\d{2}) (\d{2}):(\d{2}):(\d{2}) (\S+) ([^\s[]+)(?:\[(\d+)\])?: (.*)$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * Turns a journald short-format log of one unit (like examples/*.journal.log) back into journal entries:
 * each systemd `Starting ...` opens a new invocation (ids from invocationIdFor), systemd[1] lines get UNIT and
 * INVOCATION_ID, other lines _SYSTEMD_UNIT and _SYSTEMD_INVOCATION_ID. Times are UTC; entries within one
 * second get increasing microseconds so the order survives.
 */
export function entriesFromShortLog(text: string, options: ShortLogOptions): JournalFields[] {
  const year = options.year ?? 2026;
  const entries: JournalFields[] = [];
  let invocation = -1;
  let index = 0;
  for (const line of text.split('\n')) {
    const match = SHORT_LINE.exec(line);
    if (match === null) continue;
    const [, month = '', day, hour, minute, second, host = '', ident = '', pid, message = ''] = match;
    const systemd = ident === 'systemd' && pid === '1';
    if (systemd && message.startsWith('Starting ')) invocation += 1;
    const id = invocationIdFor(Math.max(invocation, 0));
    const millis = Date.UTC(
      year,
      MONTHS.indexOf(month),
      Number(day),
      Number(hour),
      Number(minute),
      Number(second),
    );
    index += 1;
    const common: JournalFields = {
      __REALTIME_TIMESTAMP: String(millis * 1000 + index),
      __MONOTONIC_TIMESTAMP: String(1_000_000 + index),
      _BOOT_ID: TEST_BOOT_ID,
      _HOSTNAME: host,
      SYSLOG_IDENTIFIER: ident,
      MESSAGE: message,
    };
    if (pid !== undefined) common._PID = pid;
    entries.push(
      systemd
        ? {
            ...common,
            _UID: '0',
            _COMM: 'systemd',
            _SYSTEMD_UNIT: 'init.scope',
            UNIT: options.unit,
            INVOCATION_ID: id,
          }
        : { ...common, _UID: '0', _COMM: 'python3', _SYSTEMD_UNIT: options.unit, _SYSTEMD_INVOCATION_ID: id },
    );
  }
  return entries;
}
