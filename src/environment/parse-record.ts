/** One RECORD row: a path relative to the site-packages folder (or absolute) and its hash ('' if none). */
export interface RecordEntry {
  path: string;
  hash: string;
}

/** Parses RECORD (CSV: path,hash,size with `"` quoting); rows without a path are skipped. */
export function parseRecord(text: string): RecordEntry[] {
  const entries: RecordEntry[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === '') continue;
    const [path = '', hash = ''] = line.includes('"') ? splitQuotedCsv(line) : line.split(',');
    if (path !== '') entries.push({ path, hash });
  }
  return entries;
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
