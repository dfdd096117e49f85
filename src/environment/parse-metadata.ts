/** Core metadata (METADATA / PKG-INFO): RFC 822-style headers up to the first blank line. */
export interface CoreMetadata {
  name: string;
  version: string;
  requiresDist: string[];
  requiresPython: string | null;
  providesExtra: string[];
}

type Field = 'name' | 'version' | 'requires-dist' | 'requires-python' | 'provides-extra';

/**
 * Picks the fields the checks use from the header block (RFC 822-style, up to the first blank line);
 * null when Name or Version is missing. Multi-use fields repeat; a line starting with whitespace continues
 * the header before it. Only these five fields are kept: a line of any other (Classifier, Summary, …) is
 * passed over on its first letter, which is most lines of a real METADATA.
 */
export function parseMetadata(text: string): CoreMetadata | null {
  const fields: Record<Field, string[]> = {
    name: [],
    version: [],
    'requires-dist': [],
    'requires-python': [],
    'provides-extra': [],
  };
  // The values of the header the last line belonged to; `other` for a field not kept.
  const other: string[] = [];
  let last: string[] | null = null;
  // The long description after the first blank line can be most of the file; never split it.
  const end = text.search(/\r?\n\r?\n/);
  const lines = (end === -1 ? text : text.slice(0, end)).split('\n');
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index] ?? '';
    // Lines end at LF or CRLF, as a split on /\r?\n/ would cut them.
    if (index < lines.length - 1 && line.endsWith('\r')) line = line.slice(0, -1);
    if (line === '') break;
    const first = line.charCodeAt(0);
    if ((first === 32 || first === 9) && last !== null) {
      const at = last.length - 1;
      if (last !== other) last[at] = `${last[at] ?? ''} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const values = fieldOf(fields, line, colon, first) ?? other;
    if (values !== other) values.push(line.slice(colon + 1).trim());
    last = values;
  }
  const name = fields.name[0];
  const version = fields.version[0];
  if (name === undefined || name === '' || version === undefined || version === '') return null;
  return {
    name,
    version,
    requiresDist: fields['requires-dist'].filter((value) => value !== ''),
    requiresPython: fields['requires-python'][0] ?? null,
    providesExtra: fields['provides-extra'],
  };
}

/** The values of the kept field the line's key names (any case, trimmed), or undefined. */
function fieldOf(
  fields: Record<Field, string[]>,
  line: string,
  colon: number,
  first: number,
): string[] | undefined {
  // Every kept key starts with n, v, r or p; any other ASCII letter cannot be trimmed away.
  const letter = first | 32;
  if (letter >= 97 && letter <= 122 && letter !== 110 && letter !== 118 && letter !== 114 && letter !== 112)
    return undefined;
  const key = line.slice(0, colon).trim().toLowerCase();
  return Object.hasOwn(fields, key) ? fields[key as Field] : undefined;
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
