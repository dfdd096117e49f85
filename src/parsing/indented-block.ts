/** Lines with text a decision waits for, and lines held in all at most before it decides anyway. */
const LOOK_AHEAD = 6;
const MAX_HELD = 40;
/**
 * Markdown's code block indent. Less is a log's own (a traceback's frames); more is the block's four and
 * the log's own (an excerpt that begins inside a traceback), so only four are taken off.
 */
const BLOCK_INDENT = 4;

/**
 * A log pasted as an indented block (Markdown's four-space code block, a paste inside a list, a quote):
 * every line carries the same leading whitespace or `> `, which hides each line's shape (a traceback's
 * `Traceback`, an error at the start of its line). Decided from the first lines with text, held until
 * then; taken off every line that carries it.
 */
export class IndentedBlock {
  private held: string[] = [];
  private withText = 0;
  /** undefined while undecided; '' when the log is not indented. */
  private indent: string | undefined = undefined;

  /** Whether lines are held while the first ones decide. */
  get holding(): boolean {
    return this.indent === undefined;
  }

  /** The lines to read now, in order: none while the first lines are held (once decided, `strip` each). */
  take(line: string): string[] {
    if (this.indent !== undefined) return [this.strip(line)];
    this.held.push(line);
    if (line.trim() !== '') this.withText++;
    if (this.withText < LOOK_AHEAD && this.held.length < MAX_HELD) return [];
    return this.release();
  }

  /** Decides on what is held and gives it back (the log ended, or lines are skipped next). */
  release(): string[] {
    if (this.indent === undefined) this.indent = commonIndent(this.held);
    const out = this.held.map((line) => this.strip(line));
    this.held = [];
    return out;
  }

  /** A line after the decision, without the block's indent. */
  strip(line: string): string {
    // A line outside the indent (a progress bar's segment after its carriage return) is read as it is.
    if (this.indent === '' || this.indent === undefined) return line;
    if (this.indent === QUOTE && line.trimEnd() === '>') return '';
    return line.startsWith(this.indent) ? line.slice(this.indent.length) : line;
  }
}

/** A Markdown quote's mark (`> `), on every line of a quoted paste; a line of `>` alone is an empty one. */
const QUOTE = '> ';

/** The block's indent every line with text starts with (four spaces, a tab, a quote's `> `); else ''. */
function commonIndent(lines: readonly string[]): string {
  const texts = lines.filter((line) => line.trim() !== '' && line.trim() !== '>');
  if (texts.length > 0 && texts.every((line) => line.startsWith(QUOTE))) return QUOTE;
  let common: string | null = null;
  for (const line of texts) {
    const lead = /^[ \t]*/.exec(line)?.[0] ?? '';
    common = common === null ? lead : sharedStart(common, lead);
    if (common === '') return '';
  }
  if (common === null) return '';
  if (common.startsWith('\t')) return '\t';
  return common.length < BLOCK_INDENT ? '' : common.slice(0, BLOCK_INDENT);
}

function sharedStart(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}
