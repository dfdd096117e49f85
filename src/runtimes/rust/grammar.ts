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
    // TGI's router failing a request with the error its shard answered (`Request failed during generation:
    // Server error: Out of available cache blocks: ...`): the shard's own words. Not fatal alone: the
    // router serves on after one request's failure; beside a shard's death it is what the shard said last.
    {
      id: 'tgi-request-failed-on-shard',
      rank: 225,
      pattern: /\bRequest failed during (?:generation|prefill|decode): Server error: (\S.{4,})$/,
      fatal: false,
      strength: 30,
      message: (m) => m[1] ?? '',
    },
  ],
});
