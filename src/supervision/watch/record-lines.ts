/**
 * A record's lines, as `split` gives them, without a regex for the common record of one line: a watcher
 * following a chatty server splits each of its thousands of lines a second twice.
 */

/** `message.split(/\r\n|\r|\n/)`: the lines of a record's message. */
export function messageLines(message: string): string[] {
  return message.includes('\n') || message.includes('\r') ? message.split(/\r\n|\r|\n/) : [message];
}

/** `text.replace(/\n$/, '').split('\n')`: a record's raw lines, without the newline that ends the last. */
export function rawLines(text: string): string[] {
  return text.includes('\n') ? text.replace(/\n$/, '').split('\n') : [text];
}
