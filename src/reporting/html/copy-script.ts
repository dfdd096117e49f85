import { createHash } from 'node:crypto';

/**
 * The page's only script: it shows the copy buttons and copies a command's text. It reads text nodes only
 * (textContent) and writes nothing but the button's own label, so no log content can become code. The
 * page reads the same without it: the buttons stay hidden and the commands are selectable text.
 */
export const COPY_SCRIPT = `for (const button of document.querySelectorAll('button[data-copy]')) {
  const target = document.getElementById(button.dataset.copy);
  if (!target) continue;
  button.hidden = false;
  button.addEventListener('click', () => {
    const select = () => {
      const range = document.createRange();
      range.selectNodeContents(target);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      button.textContent = 'Selected: press Ctrl+C';
    };
    if (!navigator.clipboard) return select();
    navigator.clipboard.writeText(target.textContent).then(() => { button.textContent = 'Copied'; }, select);
  });
}`;

/** A Content-Security-Policy source for an inline element's exact text. */
export function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}
