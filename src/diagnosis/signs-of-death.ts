import { QUOTABLE_SIGNS, REPORTING_LEVEL, SIGNS_OF_DEATH_IN_BLOCK } from './knowledge/may-matter.js';

/** How far into a line its level is looked for. */
const LEVEL_WITHIN = 200;

/**
 * The next sign of death in `text` from `from` on, passing over exception words that an INFO or DEBUG
 * line quotes (request logs carry prompts about errors): a server reporting is not dying.
 */
export function nextSignOfDeath(text: string, from: number): RegExpExecArray | null {
  const search = SIGNS_OF_DEATH_IN_BLOCK;
  search.lastIndex = from;
  for (;;) {
    const hit = search.exec(text);
    if (hit === null || !QUOTABLE_SIGNS.has(hit[0])) return hit;
    const lineStart = text.lastIndexOf('\n', hit.index - 1) + 1;
    const head = text.slice(lineStart, Math.min(hit.index, lineStart + LEVEL_WITHIN));
    if (!REPORTING_LEVEL.test(head)) return hit;
    // A later sign, on this line or another, is weighed on its own.
    search.lastIndex = hit.index + hit[0].length;
  }
}
