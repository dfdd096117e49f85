/** One shell word: quoted parts ('…', "…" with its escapes, \x) and bare characters, run together. */
const WORD = /(?:'[^']*'|"(?:[^"\\]|\\.)*"|\\.|[^\s'"\\])+/g;

/**
 * A command in lines of `width` columns, each but the last ending in ` \` (a shell's, and a Dockerfile's,
 * line continuation), the next indented by `indent` plus two. Broken only between words, never inside a
 * quoted one (a backslash-newline is literal in '…'): a word longer than a line keeps its own line. A
 * shell reads the lines back as the one command. A comment line is wrapped as words, each line a comment.
 */
export function wrapCommand(line: string, indent: number, width: number): string {
  if (indent + line.length <= width) return line;
  const pad = ' '.repeat(indent);
  if (line.startsWith('#')) return wrapComment(line, indent, width);
  const words = line.match(WORD) ?? [];
  // A word that is not a shell word as a whole (an unclosed quote): the line stays as it is.
  if (words.join(' ') !== line.replace(/\s+/g, ' ').trim()) return line;
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    const room = width - indent - (lines.length === 0 ? 0 : 2) - 2;
    if (current !== '' && current.length + 1 + word.length > room) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '') lines.push(current);
  return lines.join(` \\\n${pad}  `);
}

function wrapComment(line: string, indent: number, width: number): string {
  const words = line.replace(/^#\s*/, '').split(/\s+/);
  const lines: string[] = [];
  let current = '#';
  for (const word of words) {
    if (current !== '#' && indent + current.length + 1 + word.length > width) {
      lines.push(current);
      current = `# ${word}`;
    } else current = `${current} ${word}`;
  }
  lines.push(current);
  return lines.join(`\n${' '.repeat(indent)}`);
}
