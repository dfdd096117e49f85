import type { ParsedLine } from './parsed-line.js';

/**
 * The widths a terminal or a pager cuts long lines at when they are copied as printed: 80 columns, and
 * the wider windows people use. A line exactly this long whose next line starts flush left was one line.
 */
export const TERMINAL_WIDTHS: ReadonlySet<number> = new Set([
  80, 100, 120, 128, 132, 140, 150, 160, 180, 200, 220, 240,
]);

/** A continuation is flush left and is not itself a new frame, exception, tag or logger line. */
const STARTS_ANEW =
  /^(?:$|\s|File "|Traceback|During handling|The above exception|[A-Z][\w.]*(?:Error|Exception|Warning)\b|[[(]|\d{4}-|[A-Z]{4,8} )/;

const lengthOf = (text: string): number => [...text].length;

/** Joins lines a terminal wrapped at its width back into the lines the program wrote. Pure. */
export function unwrapTerminalLines(lines: readonly ParsedLine[]): ParsedLine[] {
  const out: ParsedLine[] = [];
  /** The width the last line was cut at, once it was found to be cut. */
  let width = 0;
  for (const line of lines) {
    const last = out.at(-1);
    const length = last ? lengthOf(last.raw) : 0;
    const cut = width > 0 ? length % width === 0 : TERMINAL_WIDTHS.has(length);
    if (last && cut && !STARTS_ANEW.test(line.raw)) {
      width ||= length;
      out[out.length - 1] = { ...last, raw: last.raw + line.raw, text: last.text + line.raw };
      continue;
    }
    width = 0;
    out.push(line);
  }
  return out;
}
