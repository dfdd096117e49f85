import { defineGrammar } from '../define-grammar.js';

/** Rust: panics (the message on the line after `panicked at FILE:LINE:COL:` since Rust 1.73) and `Error: Kind` from `main`. */
export default defineGrammar({
  runtime: 'rust',
  lines: [
    {
      id: 'rust-main-error',
      rank: 220,
      pattern: /^(?:Error)?: ?([A-Z]\w+)(?:\((.*)\))?\s*$/,
      fatal: true,
      strength: 30,
    },
    {
      id: 'rust-panic',
      rank: 230,
      pattern: /thread '[^']*' panicked at (.+)/,
      messageOnNextLine: true,
      fatal: true,
      strength: 38,
      crash: true,
    },
  ],
});
