import { splitLines } from '../split-lines.js';
import type { JournalEntry } from './format-journal-entry.js';

/** `journalctl -o json` output as entries, a batch per chunk; a line that is not JSON is counted and skipped. */
export async function* parseEntries(
  chunks: AsyncIterable<Uint8Array>,
  warnings: string[],
): AsyncGenerator<JournalEntry[]> {
  let skipped = 0;
  for await (const lines of splitLines(chunks)) {
    const entries: JournalEntry[] = [];
    for (const line of lines) {
      if (line.length === 0) continue;
      try {
        entries.push(JSON.parse(line) as JournalEntry);
      } catch {
        skipped += 1;
      }
    }
    yield entries;
  }
  if (skipped > 0)
    warnings.push(`journalctl printed ${skipped} lines that are not JSON entries; skipped them`);
}
