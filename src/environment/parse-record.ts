/** One RECORD row: a path relative to the site-packages folder (or absolute) and its hash ('' if none). */
export interface RecordEntry {
  path: string;
  hash: string;
}

/**
 * Parses RECORD (CSV: path,hash,size with `"` quoting); rows without a path are skipped. Lines end at LF or
 * CRLF (a lone CR stays in its line). Walked with indexOf, not split into arrays: a big environment holds
 * tens of thousands of rows and `vigil check` reads them all.
 */
export function parseRecord(text: string): RecordEntry[] {
  const entries: RecordEntry[] = [];
  // Rows are read in place (no string per row): only the path and hash are cut out of the text.
  let quote = text.indexOf('"');
  let start = 0;
  while (start <= text.length) {
    const lf = text.indexOf('\n', start);
    const next = lf === -1 ? text.length : lf;
    const end = lf !== -1 && next > start && text.charCodeAt(next - 1) === 13 ? next - 1 : next;
    if (end > start) {
      if (quote !== -1 && quote < start) quote = text.indexOf('"', start);
      const entry =
        quote !== -1 && quote < end ? quotedEntry(text.slice(start, end)) : plainEntry(text, start, end);
      if (entry.path !== '') entries.push(entry);
    }
    if (lf === -1) break;
    start = lf + 1;
  }
  return entries;
}

function plainEntry(text: string, start: number, end: number): RecordEntry {
  const comma = text.indexOf(',', start);
  if (comma === -1 || comma >= end) return { path: text.slice(start, end), hash: '' };
  const after = text.indexOf(',', comma + 1);
  return {
    path: text.slice(start, comma),
    hash: text.slice(comma + 1, after === -1 || after > end ? end : after),
  };
}

function quotedEntry(line: string): RecordEntry {
  const [path = '', hash = ''] = splitQuotedCsv(line);
  return { path, hash };
}

function splitQuotedCsv(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}
