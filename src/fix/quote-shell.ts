/**
 * Quoting for the shells a fix is printed for. Every argument of a suggested command goes through here, so a
 * value captured from a log (a requirement, a path, a flag) is always one word: it can never end the command,
 * start another (`;`, `|`, `&&`, a newline) or expand (`$`, backticks).
 */

/** Words a POSIX shell reads back as written. `<`, `>`, spaces, quotes, `$`, `;`… need quoting. */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/** One argument for POSIX sh: as is when plain, else in single quotes (a `'` inside as `'\''`). */
export function quoteArg(argument: string): string {
  if (PLAIN_WORD.test(argument)) return argument;
  return `'${argument.replace(/'/g, `'\\''`)}'`;
}

/** A command line from its arguments, each quoted for POSIX sh. */
export function joinArgs(args: readonly string[]): string {
  return args.map(quoteArg).join(' ');
}

/**
 * The command run on HOST over ssh: the remote shell reads the command as one quoted word, so it is quoted
 * twice (once for the remote shell, inside `joinArgs`; once for the local one, here). A host that starts
 * with `-` would be read as an option: `--` ends ssh's options first.
 */
export function overSsh(host: string, command: string): string {
  const target = host.startsWith('-') ? `-- ${quoteArg(host)}` : quoteArg(host);
  return `ssh ${target} ${quoteArg(command)}`;
}

/** Inside a double-quoted string: `"`, `$`, a backtick and `\` are escaped so the string cannot end early. */
export function escapeInDoubleQuotes(text: string): string {
  return text.replace(/["$`\\]/g, '\\$&');
}

/** Control characters (a newline would start a second command) shown as a space. */
export function flattenControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ');
}
