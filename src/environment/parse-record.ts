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
  const entryOf = readRows(text);
  let start = 0;
  while (start <= text.length) {
    const lf = text.indexOf('\n', start);
    const end = endOfRow(text, start, lf);
    if (end > start) {
      const entry = entryOf(start, end);
      if (entry.path !== '') entries.push(entry);
    }
    if (lf === -1) break;
    start = lf + 1;
  }
  return entries;
}

/**
 * The entry of the row [start, end) of `text`, rows asked for in order: where the next quote is is kept, so
 * a row is known to be plain (cut in place) or quoted (parsed as CSV) without a search of its own.
 */
function readRows(text: string): (start: number, end: number) => RecordEntry {
  let quote = text.indexOf('"');
  return (start, end) => {
    if (quote !== -1 && quote < start) quote = text.indexOf('"', start);
    return quote !== -1 && quote < end ? quotedEntry(text.slice(start, end)) : plainEntry(text, start, end);
  };
}

/**
 * The rows whose path holds `needle` (no line break in it), as parseRecord gives them and in its order.
 * The text is searched for `needle` and only the rows it lands in are cut out: `.so` is in a few hundred
 * of a big environment's 60,000 rows.
 */
export function findRecordRows(text: string, needle: string): RecordEntry[] {
  const rows: RecordEntry[] = [];
  const entryOf = readRows(text);
  for (let hit = text.indexOf(needle); hit !== -1;) {
    const start = text.lastIndexOf('\n', hit) + 1;
    const lf = text.indexOf('\n', hit);
    const end = endOfRow(text, start, lf);
    const entry = entryOf(start, end);
    if (entry.path.includes(needle)) rows.push(entry);
    hit = lf === -1 ? -1 : text.indexOf(needle, lf + 1);
  }
  return rows;
}

/**
 * The paths of parseRecord's rows, less each plain row (relative, no `.` or `..` part, no quote) whose top
 * folder is that of the plain row just before it: one path per run of rows under one top folder, the
 * rest as they are. What a pass over top folders needs, without a string for each of 60,000 rows.
 */
export function listFolderRuns(text: string): string[] {
  const paths: string[] = [];
  let top = '';
  let quote = text.indexOf('"');
  let dotDot = text.indexOf('..');
  let dotSlash = text.indexOf('./');
  let start = 0;
  while (start <= text.length) {
    let lf = text.indexOf('\n', start);
    const end = endOfRow(text, start, lf);
    if (end > start) {
      if (quote !== -1 && quote < start) quote = text.indexOf('"', start);
      if (dotDot !== -1 && dotDot < start) dotDot = text.indexOf('..', start);
      if (dotSlash !== -1 && dotSlash < start) dotSlash = text.indexOf('./', start);
      const quoted = quote !== -1 && quote < end;
      const comma = quoted ? -1 : text.indexOf(',', start);
      const pathEnd = comma === -1 || comma > end ? end : comma;
      const plain =
        !quoted &&
        text.charCodeAt(start) !== 47 &&
        (dotDot === -1 || dotDot + 2 > pathEnd) &&
        (dotSlash === -1 || dotSlash + 2 > pathEnd);
      const sameTop =
        plain && top !== '' && text.startsWith(top, start) && text.charCodeAt(start + top.length) === 47;
      if (!sameTop && pathEnd > start) {
        const path = quoted ? quotedEntry(text.slice(start, end)).path : text.slice(start, pathEnd);
        if (path !== '') {
          paths.push(path);
          top = plain ? topFolderOf(path) : '';
        }
      }
      if (plain && lf !== -1 && top !== '' && text.charCodeAt(start + top.length) === 47) {
        // The rows after this one that start with `top/` are left out, so one native match passes over
        // them (a loop of script per row was most of a big environment's file-overlap check). A row with
        // a quote ends the match; one with `..` or `./` is not plain, so the run stops before it.
        RUN.lastIndex = start;
        const run = RUN.exec(text);
        if (run !== null) {
          const stop = start + run[0].length;
          if (dotDot !== -1 && dotDot < lf) dotDot = text.indexOf('..', lf);
          if (dotSlash !== -1 && dotSlash < lf) dotSlash = text.indexOf('./', lf);
          let odd = stop;
          if (dotDot !== -1 && dotDot < odd) odd = dotDot;
          if (dotSlash !== -1 && dotSlash < odd) odd = dotSlash;
          const last = odd === stop ? stop : text.lastIndexOf('\n', odd);
          if (last > lf) lf = last === text.length ? -1 : last;
        }
      }
    }
    if (lf === -1) break;
    start = lf + 1;
  }
  return paths;
}

// A plain row and the rows after it that start with its top folder and hold no quote, each to its LF.
const RUN = /([^\n/,"]+)\/[^\n"]*(?=\n|$)(?:\n\1\/[^\n"]*(?=\n|$))*/y;

function topFolderOf(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? path : path.slice(0, slash);
}

/** Where the row from `start` ends: at its LF (`lf`, -1 for none), less a CR before it. */
function endOfRow(text: string, start: number, lf: number): number {
  const next = lf === -1 ? text.length : lf;
  return lf !== -1 && next > start && text.charCodeAt(next - 1) === 13 ? next - 1 : next;
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
