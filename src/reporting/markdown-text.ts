/**
 * Text from a log, a package or a rule, placed in Markdown so that it shows as written and renders as
 * nothing else. A code fence or span is longer than any run of backticks in its content, so no line of
 * the content can close it (CommonMark closes a fence only with at least as many backticks); outside code,
 * `<`, `>` and `&` become entities, so `<img onerror=...>` or `</details>` from a log is text, not HTML.
 */

const BACKTICK_RUN = /`+/g;

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.matchAll(BACKTICK_RUN)) longest = Math.max(longest, run[0].length);
  return longest;
}

/** A fenced code block holding `content` exactly, whatever backticks it holds. */
export function fence(content: string, info = ''): string {
  const marker = '`'.repeat(Math.max(3, longestBacktickRun(content) + 1));
  return `${marker}${info}\n${content}\n${marker}`;
}

/** An inline code span holding `text` (one line) exactly. */
export function codeSpan(text: string): string {
  const line = text.replaceAll('\n', ' ');
  const marker = '`'.repeat(longestBacktickRun(line) + 1);
  // A span whose content starts or ends with a backtick needs a space inside; CommonMark strips one.
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${marker}${pad}${line}${pad}${marker}`;
}

const MARKUP = /[&<>]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Text outside code: no HTML tag or entity from the input takes effect. */
export function escapeMarkdownHtml(text: string): string {
  return text.replace(MARKUP, (char) => ENTITIES[char] ?? char);
}

/** A link target with the characters that would end it early (`)`, a space, `<`, `>`) percent-encoded. */
export function linkTarget(url: string): string {
  return url.replace(
    /[()<>\s]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}
