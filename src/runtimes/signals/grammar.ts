import { defineGrammar } from '../define-grammar.js';

/** Signals and deaths: segmentation faults, bus errors, illegal instructions, `Killed`, the kernel's OOM killer, a shard signalled. */
export default defineGrammar({
  runtime: 'signals',
  lines: [
    {
      id: 'segfault',
      rank: 280,
      pattern: /Segmentation fault|SIGSEGV|Fatal Python error: Segmentation/,
      fatal: true,
      strength: 35,
      crash: true,
    },
    { id: 'bus-error', rank: 300, pattern: /\bBus error\b|SIGBUS/, fatal: true, strength: 35, crash: true },
    {
      id: 'illegal-instruction',
      rank: 310,
      pattern: /Illegal instruction|SIGILL/,
      fatal: true,
      strength: 35,
      crash: true,
    },
    {
      id: 'shard-signal',
      rank: 320,
      pattern: /Shard process was signaled to shutdown with signal (\d+)/,
      fatal: true,
      strength: 33,
    },
    {
      id: 'oom-killer',
      rank: 330,
      pattern: /Out of memory: Kill(?:ed)? process|invoked oom-killer|oom-kill:|OOMKilled/,
      fatal: true,
      strength: 44,
      crash: true,
    },
    { id: 'killed', rank: 340, pattern: /^Killed$|\bsignal: killed\b/, fatal: true, strength: 25 },
    // A Go runtime's own word for a segfault, and a process a supervisor saw die with no word of its own.
    {
      id: 'go-signal',
      rank: 285,
      pattern: /^SIG(?:SEGV|BUS|ILL|ABRT|FPE): .+/,
      fatal: true,
      strength: 34,
      crash: true,
    },
    {
      id: 'died-unexpectedly',
      rank: 345,
      pattern: /\b(?:proc|process) \S+ died unexpectedly\b/,
      fatal: true,
      strength: 24,
      crash: true,
    },
  ],
});
