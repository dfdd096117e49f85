import { RE2JS } from 're2js';

/**
 * User patterns (rule files anyone can share, loaded on every `diagnose`) run in RE2's linear-time engine
 * (re2js, pure JavaScript), never in V8's backtracking one: `^(a{1,30}){1,30}$` took V8 113 s on a
 * 41-character line and no vetting of the pattern's shape catches every such case. RE2 has no
 * backreferences or lookaheads, so a pattern with one is refused with a reason instead.
 */

const FLAGS: Record<string, number> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
  u: 0,
};

/** `\1` or `\k<name>` outside a character class: what RE2 cannot run, named for the message. */
function findBackreference(source: string): string | null {
  let inClass = false;
  for (let at = 0; at < source.length; at++) {
    const char = source[at];
    if (char === '\\') {
      const next = source[at + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return `\\${next}`;
      if (!inClass && next === 'k' && source[at + 2] === '<') return '\\k<…>';
      at++;
    } else if (char === '[') inClass = true;
    else if (char === ']') inClass = false;
  }
  return null;
}

/** A RegExp whose `exec` and `test` run in linear time; `source` and `flags` read as the user wrote them. */
export class LinearRegExp extends RegExp {
  readonly #linear: RE2JS;

  constructor(source: string, flags: string, linear: RE2JS) {
    super(source, flags);
    this.#linear = linear;
  }

  override exec(text: string): RegExpExecArray | null {
    return this.#linear.exec(text) as RegExpExecArray | null;
  }

  override test(text: string): boolean {
    return this.#linear.test(text);
  }
}

/** The pattern compiled for the linear engine, or what it must be instead (for "expected ..." messages). */
export function compileLinearPattern(source: string, flags: string): LinearRegExp | string {
  const backreference = findBackreference(source);
  if (backreference !== null) {
    return `a pattern without backreferences (${backreference}): user patterns run in a linear-time engine (RE2) that cannot match them`;
  }
  let bits = RE2JS.LOOKBEHINDS;
  for (const flag of flags) bits |= FLAGS[flag] ?? 0;
  try {
    return new LinearRegExp(source, flags, RE2JS.compile(RE2JS.translateRegExp(source), bits));
  } catch (error) {
    const reason =
      error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    const lookaround = /\(\?<?[=!]/.test(source) ? '; lookahead (?= (?! is not supported' : '';
    return `a pattern the linear-time engine (RE2) accepts (${reason}${lookaround})`;
  }
}
