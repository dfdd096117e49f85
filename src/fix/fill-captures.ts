import { escapeInDoubleQuotes, flattenControls, quoteArg } from './quote-shell.js';
import type { FixAction } from './fix-action.js';

const PLACEHOLDER = /\{(\w+)\}/g;
/** A capture that reads the same anywhere in a shell word: inserted as it is. */
const PLAIN = /^[\w.,:/@+=~%^-]*$/;

/** `{name}` filled from the captures, as it is: for titles and explanations, which are never run. */
export function fillText(template: string, captures: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => captures[name] ?? whole);
}

/**
 * `{name}` in a fix, which an operator copies into a shell; a capture from the log is quoted for the place
 * in the template it lands in (inside "…": escaped; inside '…': closed, quoted, reopened; bare: one quoted
 * word), so it can never end the command or start another, whatever the log said.
 */
export function fillCommand(template: string, captures: Readonly<Record<string, string>>): string {
  let out = '';
  let quote: '"' | "'" | null = null;
  for (let at = 0; at < template.length;) {
    PLACEHOLDER.lastIndex = at;
    const placeholder = template[at] === '{' ? PLACEHOLDER.exec(template) : null;
    if (placeholder !== null && placeholder.index === at) {
      const value = captures[placeholder[1] ?? ''];
      out += value === undefined ? placeholder[0] : quoteIn(flattenControls(value), quote);
      at += placeholder[0].length;
      continue;
    }
    const char = template[at] ?? '';
    quote = nextQuote(quote, char, template[at - 1] ?? ' ');
    out += char;
    at += 1;
  }
  return out;
}

/** A `'` after a letter is an apostrophe (the model's), not a quote, unless it closes one. */
function nextQuote(quote: '"' | "'" | null, char: string, before: string): '"' | "'" | null {
  if (quote === null) {
    if (char === '"') return '"';
    if (char === "'" && !/[A-Za-z0-9]/.test(before)) return "'";
    return null;
  }
  return char === quote ? null : quote;
}

function quoteIn(value: string, quote: '"' | "'" | null): string {
  if (PLAIN.test(value)) return value;
  if (quote === '"') return escapeInDoubleQuotes(value);
  if (quote === "'") return `'${quoteArg(value)}'`;
  return quoteArg(value);
}

/** A signature's actions with `{name}` filled as plain values: render-fix.ts quotes them for the shell. */
export function fillActions(
  actions: readonly FixAction[],
  captures: Readonly<Record<string, string>>,
): FixAction[] {
  const fill = (value: string): string => flattenControls(fillText(value, captures));
  return actions.map((action): FixAction => {
    switch (action.kind) {
      case 'install':
        return { ...action, requirements: action.requirements.map(fill) };
      case 'engine-option':
        return {
          ...action,
          ...(action.value === undefined ? {} : { value: fill(action.value) }),
          ...(action.divides === undefined ? {} : { divides: fill(action.divides) }),
          ...(action.share === undefined
            ? {}
            : { share: { part: fill(action.share.part), whole: fill(action.share.whole) } }),
        };
      case 'inspect-packages':
      case 'inspect-exit':
        return action;
      case 'stop-process':
        return { ...action, pid: fill(action.pid) };
      case 'environment-variable':
        return { ...action, value: fill(action.value) };
      case 'shared-memory':
        return action;
      case 'command':
        return { ...action, argv: action.argv.map(fill) };
      case 'system-package':
        return { ...action, packages: action.packages.map(fill) };
      // Words an operator may copy from: each capture quoted where it lands, as in a fix's template.
      case 'step':
        return { ...action, text: fillCommand(action.text, captures) };
      case 'free-port':
        return {
          ...action,
          port: fill(action.port),
          ...(action.pid === undefined ? {} : { pid: fill(action.pid) }),
        };
    }
  });
}
