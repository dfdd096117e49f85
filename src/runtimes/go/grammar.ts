import { defineGrammar } from '../define-grammar.js';

/** Go: `panic:` and `fatal error:`, and Ollama's logfmt lines (`msg="..." error="..."`) that relay its runner. */
export default defineGrammar({
  runtime: 'go',
  lines: [
    { id: 'go-panic', rank: 240, pattern: /^panic: (.+)/, fatal: true, strength: 40, crash: true },
    { id: 'go-fatal', rank: 250, pattern: /^fatal error: (.+)/, fatal: true, strength: 38 },
    // Go on Windows: an exception (an NTSTATUS such as 0xc0000005, an access violation) in cgo or external code.
    {
      id: 'go-windows-exception',
      rank: 246,
      pattern: /^Exception 0x[0-9a-f]{8} 0x[0-9a-f]+/,
      fatal: true,
      strength: 39,
      crash: true,
    },
    // gin's recovery middleware: a request's handler panicked. Once the server is ready a request's failure
    // counts only beside a death; before any sign of readiness it is the failure. The message is on the next line.
    {
      id: 'gin-panic-recovered',
      rank: 247,
      pattern: /\[Recovery\] .*\bpanic recovered:\s*$/,
      messageOnNextLine: true,
      fatal: true,
      strength: 30,
    },
    // The runtime names the address of a fault before its bare `fatal error: fault`: that line says more.
    {
      id: 'go-fault-address',
      rank: 245,
      pattern: /^unexpected fault address (?:0x)?[0-9a-f]+/,
      fatal: true,
      strength: 39,
      crash: true,
    },
    // Ollama's slog lines, their `time= level= source=` header already read: `msg="..." error="..."`.
    // Logged at INFO, yet the start of the model failed; its error="..." says why, or repeats the loader.
    {
      id: 'ollama-server-failed',
      rank: 390,
      pattern: /^msg="NewLlamaServer failed".*?error="([^"]+)"/,
      fatal: true,
      strength: 30,
      message: (m) => m[1] ?? '',
      quiet: true,
    },
    // The scheduler's INFO line when a model's load ended: its error="..." is the runner's death, with the
    // exit status (a Windows NTSTATUS: 0xc0000094 is an integer division by zero) and what it printed.
    // The server's request to its runner ended in EOF: the runner died in the middle of a completion (a
    // crash of its own, or killed). The server lives on; the model it ran did not. Not `context canceled`:
    // that is the client going away.
    {
      id: 'ollama-runner-died-mid-request',
      rank: 393,
      pattern: /^msg="post predict" error="Post \\"[^"\\]*\/completion\\": EOF"/,
      fatal: true,
      strength: 22,
      crash: true,
    },
    {
      id: 'ollama-load-failed',
      rank: 395,
      pattern: /^msg="Load failed".*?error="((?:[^"\\]|\\.)+)"/,
      fatal: true,
      strength: 34,
      message: (m) => m[1] ?? '',
      quiet: true,
    },
    {
      id: 'ollama-load-error',
      rank: 400,
      pattern:
        /^msg="(?:error loading|failed to load|unable to load|error starting|llama runner terminated)[^"]*"(?:.*?error="([^"]+)")?/,
      fatal: true,
      strength: 34,
    },
    // GPU discovery that could not load the CUDA driver's library (an INFO line: Ollama goes on, on the CPU).
    {
      id: 'ollama-cuda-init-failed',
      rank: 405,
      pattern: /^msg="(Unable to load cud(?:art|a) library [^"]*: [^"]+)"/,
      fatal: false,
      strength: 24,
      message: (m) => m[1] ?? '',
      quiet: true,
    },
    // The desktop app's log (app.log) on the server it runs: the server's own log says why, this only that it
    // died (`msg="ollama exited" err="exit status 0xffffffff"`, then each restart's `exit status 1`).
    {
      id: 'ollama-server-exited',
      rank: 408,
      pattern: /^msg="ollama exited" err="([^"]+)"/,
      fatal: true,
      strength: 26,
      message: (m) => `ollama exited: ${m[1] ?? ''}`,
    },
    {
      id: 'ollama-error',
      rank: 410,
      pattern: /^msg="([^"]+)"(?:.*?error="([^"]+)")?/,
      fatal: false,
      strength: 30,
      message: (m) => m[2] ?? m[1] ?? '',
    },
    {
      id: 'go-std-error',
      rank: 420,
      pattern: /\b(?:exited with error|runner exited|error loading|failed to)\b/,
      fatal: false,
      strength: 20,
    },
  ],
});
