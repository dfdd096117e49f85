/** PEP 508 environment markers: a small tokenizer and recursive-descent parser. */

export type MarkerValue = { variable: string } | { literal: string };

export type Marker =
  | { kind: 'and' | 'or'; left: Marker; right: Marker }
  | { kind: 'compare'; left: MarkerValue; operator: string; right: MarkerValue };

const VARIABLES = new Set([
  'os_name',
  'sys_platform',
  'platform_machine',
  'platform_python_implementation',
  'platform_release',
  'platform_system',
  'platform_version',
  'python_version',
  'python_full_version',
  'implementation_name',
  'implementation_version',
  'extra',
  'extras',
  'dependency_groups',
]);

// Legacy spellings packaging still accepts; mapped to the PEP 508 names.
const LEGACY: Record<string, string> = {
  'os.name': 'os_name',
  'sys.platform': 'sys_platform',
  'platform.version': 'platform_version',
  'platform.machine': 'platform_machine',
  'platform.python_implementation': 'platform_python_implementation',
  python_implementation: 'platform_python_implementation',
};

const TOKEN =
  /\s*(?:(\()|(\))|('[^']*'|"[^"]*")|(===|==|!=|~=|<=|>=|<|>|not\s+in\b|in\b)|(and\b|or\b)|([A-Za-z_][\w.]*))/y;

type Token = { type: 'open' | 'close' | 'string' | 'op' | 'bool' | 'name'; text: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const start = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (m === null) throw new Error(`unexpected text at ${start}: ${text.slice(start, start + 20)}`);
    if (m[1] !== undefined) tokens.push({ type: 'open', text: '(' });
    else if (m[2] !== undefined) tokens.push({ type: 'close', text: ')' });
    else if (m[3] !== undefined) tokens.push({ type: 'string', text: m[3].slice(1, -1) });
    else if (m[4] !== undefined) tokens.push({ type: 'op', text: m[4].replace(/\s+/g, ' ') });
    else if (m[5] !== undefined) tokens.push({ type: 'bool', text: m[5] });
    else tokens.push({ type: 'name', text: m[6] ?? '' });
  }
  return tokens;
}

/** Parses a marker expression; throws an Error naming the problem when it is not PEP 508. */
export function parseMarker(text: string): Marker {
  const tokens = tokenize(text);
  let at = 0;
  const peek = (): Token | undefined => tokens[at];
  const expect = (type: Token['type']): Token => {
    const token = tokens[at++];
    if (token?.type !== type) throw new Error(`expected ${type} in marker: ${text}`);
    return token;
  };
  const parseValue = (): MarkerValue => {
    const token = tokens[at++];
    if (token?.type === 'string') return { literal: token.text };
    if (token?.type === 'name') {
      const variable = LEGACY[token.text] ?? token.text;
      if (!VARIABLES.has(variable)) throw new Error(`unknown marker variable ${token.text}`);
      return { variable };
    }
    throw new Error(`expected a marker variable or string in: ${text}`);
  };
  const parseAtom = (): Marker => {
    if (peek()?.type === 'open') {
      at++;
      const inner = parseOr();
      expect('close');
      return inner;
    }
    const left = parseValue();
    const operator = expect('op').text;
    return { kind: 'compare', left, operator, right: parseValue() };
  };
  const parseAnd = (): Marker => {
    let left = parseAtom();
    while (peek()?.type === 'bool' && peek()?.text === 'and') {
      at++;
      left = { kind: 'and', left, right: parseAtom() };
    }
    return left;
  };
  const parseOr = (): Marker => {
    let left = parseAnd();
    while (peek()?.type === 'bool' && peek()?.text === 'or') {
      at++;
      left = { kind: 'or', left, right: parseAnd() };
    }
    return left;
  };
  const marker = parseOr();
  if (at !== tokens.length) throw new Error(`unexpected ${tokens[at]?.text ?? ''} in marker: ${text}`);
  return marker;
}
