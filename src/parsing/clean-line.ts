/**
 * Removes what terminals and log shippers add to a line but the server never wrote: ANSI colour codes
 * (raw ESC, and as rendered by CloudWatch `#033[2m` or by copy-paste `^[[0;36m`), trailing CR, NULs, and
 * the dots a waiting loop printed with no newline, glued before the next line's timestamp
 * (`................2025-12-31 10:49:41.425469 error ...`).
 */
// eslint-disable-next-line no-control-regex -- ESC and NUL are exactly what must go
const ANSI = /(?:\u001b|#033|\^\[)\[[0-9;?]*[A-Za-z]|\u001b[()][0-9A-B]|\u0000/g;

const DOT = 46;
const DOTS_BEFORE_TIME = /^\.{3,}(?=\d{4}-\d\d-\d\d[ T]\d\d:\d\d)/;

export function cleanLine(line: string): string {
  let text = line;
  if (text.includes('\u001b') || text.includes('#033[') || text.includes('^[[') || text.includes('\u0000')) {
    text = text.replace(ANSI, '');
  }
  if (text.endsWith('\r')) text = text.slice(0, -1);
  if (text.charCodeAt(0) === DOT) text = text.replace(DOTS_BEFORE_TIME, '');
  return text;
}
