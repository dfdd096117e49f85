import { normalizeName } from './normalize-name.js';
import { parseMarker, type Marker } from './parse-marker.js';

/** One PEP 508 requirement, as found in Requires-Dist. */
export interface Requirement {
  /** The name as written. */
  name: string;
  /** The PEP 503 normalized name. */
  key: string;
  /** Normalized extras asked for: `torch[cuda]` → ['cuda']. */
  extras: string[];
  /** The version specifier without parentheses, '' for any version. */
  specifier: string;
  url: string | null;
  marker: Marker | null;
  raw: string;
}

const HEAD = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[([^\]]*)\])?\s*/;

/** Parses `name[extras] (spec | @ url) ; marker`; throws an Error naming the problem. */
export function parseRequirement(raw: string): Requirement {
  return readRequirement(raw, undefined);
}

/**
 * A parseRequirement that parses each marker text once over all its calls: the same few (`extra ==
 * "test"`, `python_version < "3.11"`) recur across hundreds of packages, and as a parsed marker is never
 * changed, the requirements share it.
 */
export function makeRequirementParser(): (raw: string) => Requirement {
  const markers = new Map<string, Marker>();
  return (raw) => readRequirement(raw, markers);
}

function readRequirement(raw: string, markers: Map<string, Marker> | undefined): Requirement {
  const head = HEAD.exec(raw);
  if (head === null) throw new Error(`not a PEP 508 requirement: ${raw}`);
  const [whole, name = '', extrasText] = head;
  let rest = raw.slice(whole.length);
  let url: string | null = null;
  let specifier = '';
  let markerText: string | null = null;
  if (rest.startsWith('@')) {
    // A URL ends at whitespace; the marker must follow after a space (PEP 508).
    const urlMatch = /^@\s*(\S+)\s*/.exec(rest);
    url = urlMatch?.[1] ?? '';
    rest = rest.slice(urlMatch?.[0].length ?? rest.length);
    if (rest.startsWith(';')) markerText = rest.slice(1);
    else if (rest.trim() !== '') throw new Error(`unexpected text after URL in ${raw}`);
  } else {
    const semicolon = rest.indexOf(';');
    specifier = (semicolon === -1 ? rest : rest.slice(0, semicolon)).trim();
    if (semicolon !== -1) markerText = rest.slice(semicolon + 1);
    if (specifier.startsWith('(') && specifier.endsWith(')')) specifier = specifier.slice(1, -1).trim();
    if (specifier !== '' && !/^(===|==|!=|~=|<=|>=|<|>)/.test(specifier)) {
      throw new Error(`bad version specifier "${specifier}" in ${raw}`);
    }
  }
  const extras =
    extrasText === undefined || extrasText.trim() === ''
      ? []
      : extrasText
          .split(',')
          .map((extra) => extra.trim())
          .filter((extra) => extra !== '')
          .map(normalizeName);
  const marker = markerText === null || markerText.trim() === '' ? null : readMarker(markerText, markers);
  return { name, key: normalizeName(name), extras, specifier, url, marker, raw: raw.trim() };
}

function readMarker(text: string, markers: Map<string, Marker> | undefined): Marker {
  const known = markers?.get(text);
  if (known !== undefined) return known;
  const marker = parseMarker(text);
  markers?.set(text, marker);
  return marker;
}
