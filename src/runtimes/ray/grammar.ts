import { defineGrammar } from '../define-grammar.js';

/**
 * Ray, which runs an engine's workers as actors: its reports of a worker that died say that it died, not why.
 * The worker's own last lines (a native crash, absl's `*** SIGSEGV received at time=... ***`) say why.
 */
export default defineGrammar({
  runtime: 'ray',
  lines: [
    // The raylet's report lists the usual suspects (`(3) ... due to SIGSEGV or other unexpected errors`):
    // read before the signal rows, so that list is not taken for a crash. It proves a death and outranks
    // the actor's `ActorDiedError` (a wrapper), but not the worker's own crash lines.
    {
      id: 'ray-worker-died',
      rank: 275,
      pattern: /A worker died or was killed while executing a task by an unexpected system error/,
      fatal: true,
      strength: 15,
    },
    // The same report wrapped at a terminal's width: its list of suspects alone on a line.
    {
      id: 'ray-worker-died-suspects',
      rank: 276,
      pattern: /\(3\) The worker is crashed unexpectedly due to SIGSEGV or other unexpected errors/,
      fatal: false,
      strength: 0,
    },
  ],
});
