/**
 * Removes what terminals and log shippers add to a line but the server never wrote: ANSI colour codes
 * (raw ESC, and as rendered by CloudWatch `#033[2m` or by copy-paste `^[[0;36m`), trailing CR, and NULs.
 */
// eslint-disable-next-line no-control-regex -- ESC and NUL are exactly what must go
const ANSI = /(?:\u001b|#033|\^\[)\[[0-9;?]*[A-Za-z]|\u001b[()][0-9A-B]|\u0000/g;

export function cleanLine(line: string): string {
  let text = line;
  if (text.includes('\u001b') || text.includes('#033[') || text.includes('^[[') || text.includes('\u0000')) {
    text = text.replace(ANSI, '');
  }
  if (text.endsWith('\r')) text = text.slice(0, -1);
  return text;
}
