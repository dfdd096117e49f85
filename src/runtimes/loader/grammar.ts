import { defineGrammar } from '../define-grammar.js';

/** The dynamic loader refusing a binary: nothing of the server ran. */
export default defineGrammar({
  runtime: 'loader',
  lines: [
    // The dynamic loader refusing a binary: nothing of the server ran.
    {
      id: 'loader-error',
      rank: 40,
      pattern:
        /error while loading shared libraries: (.+)|symbol lookup error: (.+)|version `[^`']+' not found \(required by [^)]+\)/,
      fatal: true,
      strength: 44,
    },
  ],
});
