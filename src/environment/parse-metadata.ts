/** Core metadata (METADATA / PKG-INFO): RFC 822-style headers up to the first blank line. */
export interface CoreMetadata {
  name: string;
  version: string;
  requiresDist: string[];
  requiresPython: string | null;
  providesExtra: string[];
}

/** Reads the header block; multi-use fields repeat; continuation lines start with whitespace. */
export function parseHeaders(text: string): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  let last: { key: string; values: string[] } | null = null;
  // The long description after the first blank line can be most of the file; never split it.
  const end = text.search(/\r?\n\r?\n/);
  for (const line of (end === -1 ? text : text.slice(0, end)).split(/\r?\n/)) {
    if (line === '') break;
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== null) {
      const index = last.values.length - 1;
      last.values[index] = `${last.values[index] ?? ''} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const values = headers.get(key) ?? [];
    values.push(line.slice(colon + 1).trim());
    headers.set(key, values);
    last = { key, values };
  }
  return headers;
}

/** Picks the fields the checks use; null when Name or Version is missing. */
export function parseMetadata(text: string): CoreMetadata | null {
  const headers = parseHeaders(text);
  const name = headers.get('name')?.[0];
  const version = headers.get('version')?.[0];
  if (name === undefined || name === '' || version === undefined || version === '') return null;
  return {
    name,
    version,
    requiresDist: (headers.get('requires-dist') ?? []).filter((value) => value !== ''),
    requiresPython: headers.get('requires-python')?.[0] ?? null,
    providesExtra: headers.get('provides-extra') ?? [],
  };
}

/**
 * Converts an egg-info requires.txt into Requires-Dist strings, as importlib_metadata does:
 * `[extra:marker]` sections become `; (marker) and extra == "extra"`.
 */
export function convertEggRequires(text: string): string[] {
  const requirements: string[] = [];
  let condition = '';
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const section = /^\[(.*)\]$/.exec(line);
    if (section !== null) {
      const [extra = '', markers = ''] = (section[1] ?? '').split(/:(.*)/s);
      const parts = [extra !== '' && markers !== '' ? `(${markers})` : markers];
      if (extra !== '') parts.push(`extra == "${extra}"`);
      const joined = parts.filter((part) => part !== '').join(' and ');
      condition = joined === '' ? '' : `; ${joined}`;
      continue;
    }
    // PEP 508 needs a space between a URL and its marker.
    const space = line.includes('@ ') && condition !== '' ? ' ' : '';
    requirements.push(`${line}${space}${condition}`);
  }
  return requirements;
}
