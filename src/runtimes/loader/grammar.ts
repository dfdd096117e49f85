import { defineGrammar } from '../define-grammar.js';

/** The dynamic loader refusing a binary: nothing of the server ran. */
export default defineGrammar({
  runtime: 'loader',
  lines: [
    // The dynamic loader refusing a binary: nothing of the server ran.
    {
      id: 'loader-error',
      rank: 40,
      // macOS's loader says it as `dyld[PID]: Library not loaded: @rpath/libllama.dylib`.
      pattern:
        /error while loading shared libraries: (.+)|symbol lookup error: (.+)|version `[^`']+' not found \(required by [^)]+\)|\bdyld(?:\[\d+\])?: (?:Library not loaded|Symbol not found): (.+)/,
      fatal: true,
      strength: 44,
      // A front-end or launcher relays its child's stderr at its own INFO or DEBUG level: still the loader.
      quiet: true,
    },
  ],
});
