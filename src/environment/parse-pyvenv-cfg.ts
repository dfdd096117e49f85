/** Parses pyvenv.cfg: `key = value` lines, key before the first `=`; it only looks like INI. */
export function parsePyvenvCfg(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const equals = line.indexOf('=');
    if (equals === -1) continue;
    values.set(line.slice(0, equals).trim().toLowerCase(), line.slice(equals + 1).trim());
  }
  return values;
}
