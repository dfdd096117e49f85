import { defineGrammar } from '../define-grammar.js';

/** .NET, hosting llama.cpp (LLamaSharp) or another engine: the runtime's report of the exception it died of. */
export default defineGrammar({
  runtime: 'dotnet',
  lines: [
    // `Fatal error. System.AccessViolationException: ...` (a native crash the CLR turned into an exception),
    // `Unhandled exception. System.InvalidOperationException: ...`.
    {
      id: 'dotnet-unhandled',
      rank: 106,
      pattern: /(?:Fatal error[.:]|Unhandled exception\.)\s+(System\.[\w.]+(?:Exception|Error)): (.+)/,
      fatal: true,
      strength: 42,
      crash: true,
    },
  ],
});
