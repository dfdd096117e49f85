import { defineGrammar } from '../define-grammar.js';

/** NCCL: `NCCL WARN` lines that carry the cause, the watchdog and the error class the collective raises after them. */
export default defineGrammar({
  runtime: 'nccl',
  lines: [
    { id: 'nccl-warn', rank: 200, pattern: /\bNCCL WARN (.+)/, fatal: false, strength: 30 },
    {
      id: 'nccl-watchdog',
      rank: 210,
      pattern:
        /Watchdog caught collective operation timeout|ProcessGroupNCCL's watchdog got stuck|NCCL (?:error|communicator was aborted)/,
      fatal: true,
      strength: 40,
    },
  ],
});
