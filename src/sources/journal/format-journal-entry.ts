/** One entry of `journalctl -o json`: strings, byte arrays for non-UTF-8 data, arrays for repeated fields. */
export type JournalEntry = Record<string, unknown>;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A field as text: byte arrays decoded as UTF-8, the first value of a repeated field, null as absent. */
export function fieldText(entry: JournalEntry, name: string): string | undefined {
  return decodeValue(entry[name]);
}

function decodeValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  if (typeof value[0] === 'number') return Buffer.from(value as number[]).toString('utf8');
  return decodeValue(value[0]);
}

let cachedSecond = -1;
let cachedStamp = '';

/** `Feb 20 23:31:36` in UTC, as journalctl's short format prints it (day zero-padded). */
export function formatTimestamp(microseconds: string | undefined): string {
  const millis = microseconds === undefined ? NaN : Number(microseconds) / 1000;
  if (!Number.isFinite(millis)) return 'Jan 01 00:00:00';
  const second = Math.floor(millis / 1000);
  if (second !== cachedSecond) {
    const date = new Date(second * 1000);
    const pad = (n: number): string => String(n).padStart(2, '0');
    cachedStamp = `${MONTHS[date.getUTCMonth()] ?? 'Jan'} ${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(
      date.getUTCMinutes(),
    )}:${pad(date.getUTCSeconds())}`;
    cachedSecond = second;
  }
  return cachedStamp;
}

/**
 * Renders an entry as journald short-format text, `Mon DD HH:MM:SS host ident[pid]: MESSAGE\n`, the
 * format parsers already know. A multi-line MESSAGE becomes several lines with the same prefix, so every
 * traceback line keeps its process. A missing host is written as `localhost` to keep the columns.
 */
export function formatJournalEntry(entry: JournalEntry): string {
  const host = fieldText(entry, '_HOSTNAME') ?? 'localhost';
  const ident = fieldText(entry, 'SYSLOG_IDENTIFIER') ?? fieldText(entry, '_COMM') ?? 'unknown';
  const pid = fieldText(entry, '_PID') ?? fieldText(entry, 'SYSLOG_PID');
  const prefix = `${formatTimestamp(fieldText(entry, '__REALTIME_TIMESTAMP'))} ${host} ${ident}${
    pid === undefined ? '' : `[${pid}]`
  }: `;
  const message = fieldText(entry, 'MESSAGE') ?? '';
  if (!message.includes('\n')) return `${prefix}${message}\n`;
  const lines = message.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line) => `${prefix}${line}\n`).join('');
}
