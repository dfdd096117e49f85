import { UsageError } from '../errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * `90s`, `10m`, `1h30m`, `500ms`, or a bare number of seconds (`120`), as systemd and most CLIs accept.
 * Throws a UsageError that names the flag and shows the grammar.
 */
export function parseDuration(text: string, flag = 'duration'): number {
  const trimmed = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  const consumed = parts.map((part) => part[0]).join('');
  if (parts.length === 0 || consumed !== trimmed) {
    throw new UsageError(
      `${flag} ${JSON.stringify(text)} is not a duration; use e.g. 90s, 10m, 1h30m or 500ms`,
    );
  }
  return Math.round(
    parts.reduce((total, [, amount, unit]) => total + Number(amount) * (UNITS[unit ?? 's'] ?? 1000), 0),
  );
}
