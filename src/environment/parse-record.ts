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
  let start = 0;
  while (start <= text.length) {
    const lf = text.indexOf('\n', start);
    const next = lf === -1 ? text.length : lf;
    const end = lf !== -1 && next > start && text.charCodeAt(next - 1) === 13 ? next - 1 : next;
    if (end > start) {
      const line = text.slice(start, end);
      const entry = line.includes('"') ? quotedEntry(line) : plainEntry(line);
      if (entry.path !== '') entries.push(entry);
    }
    if (lf === -1) break;
    start = lf + 1;
  }
  return entries;
}

function plainEntry(line: string): RecordEntry {
  const comma = line.indexOf(',');
  if (comma === -1) return { path: line, hash: '' };
  const after = line.indexOf(',', comma + 1);
  return { path: line.slice(0, comma), hash: line.slice(comma + 1, after === -1 ? line.length : after) };
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
