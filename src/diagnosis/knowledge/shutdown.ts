import { HEAP_CHECKS } from '../../runtimes/cpp/heap-checks.js';
import { anyOf } from './any-of.js';
import { hasFailureWords } from './failure-words.js';

/**
 * Signs that a stop was asked for: a signal the operator or a supervisor sent, or the server saying it
 * got one. What follows is the server unwinding (vLLM's `EngineDeadError`, SGLang's child that "crashed with
 * exit code -15", TGI's shards terminated, Ollama's `context canceled`), not a failure of its own.
 */
export const STOP_REQUESTS: readonly RegExp[] = [
  // Not SGLang's parent told by a child that failed (`Received sigquit from a child process`, and later
  // `SIGQUIT received. ... It usually means one child failed.`).
  // Nor a process ending its own children (vLLM's executor: `workers still running after SIGTERM; sending
  // SIGKILL`), which it does after a failure as after a stop. Nor its Ray executor's note as it shuts down,
  // after a failure as after a stop (`If you see error log ... regarding SIGTERM received, please ignore`).
  /(?<!sending |after |regarding )\bSIG(?:TERM|INT|QUIT)\b(?! from a child| received\b.*\bchild failed)|\bsignal (?:15|2|SIGTERM|SIGINT)\b|exit(?:ed with)? code -(?:15|2)\b/i,
  /\b(?:received|got|caught) (?:a )?(?:shutdown|termination|stop|exit) (?:signal|request)\b/i,
  // Not an instruction that names the keys (llama.cpp's `Press Ctrl+C to interject at any time.`).
  /\bKeyboardInterrupt\b|(?<![Pp]ress )Ctrl\+C|\^C$/,
  // vLLM's API server, from its SIGINT and SIGTERM handler (its later releases).
  /\[shutdown\] API server: shutdown triggered/,
  // torch's elastic agent (torchrun) told to stop: it ends its workers (`Received 15 death signal, shutting
  // down workers`).
  /\bReceived (?:15|2) death signal\b/,
  // Slurm's srun told to end its job steps (a signal from the job's script, or scancel): what its tasks then
  // say (`srun: error: node-1: task 0: Killed`) is that ending.
  /^srun: forcing job termination\s*$/,
];

/**
 * A server's own words for shutting down. After a failure they are its death; with no failure before them
 * they are a stop (uvicorn, TGI's launcher and Ollama say the same words whether killed or asked).
 */
export const SHUTDOWN_PHRASES: readonly RegExp[] = [
  /\bShutting down\b|\bshutting down\b|Waiting for application shutdown|Application shutdown complete/,
  /\bGracefully (?:stopping|shutting)|graceful shutdown|Terminating (?:shard|webserver|server)|Stopping (?:the )?server/i,
  // vLLM's executor ending its workers as an offline run's LLM is let go.
  /Terminating local vLLM worker processes/,
  // vLLM's engine core told to shut down (its later releases, offline runs and servers alike).
  /\bShutdown initiated \(timeout=\d+\)/,
];

/** A server's last words after a stop: the process is done, and whatever is logged next is another run's. */
export const SHUTDOWN_DONE: readonly RegExp[] = [
  /Application shutdown complete|Finished server process|[Ss]hutdown complete|Server stopped|Deactivated successfully|Stopped \S+\.service/,
];

export const isStopRequest = anyOf(STOP_REQUESTS);
export const isShutdownDone = anyOf(SHUTDOWN_DONE);
export const isShutdownPhrase = anyOf(SHUTDOWN_PHRASES);

/** Exceptions a process raises as it is stopped: tasks cancelled, the interpreter told to exit. */
export const STOPPED = /(?:^|\.)(?:KeyboardInterrupt|CancelledError|GeneratorExit|SystemExit)$/;
/**
 * An exit with no words of its own (`SystemExit: `, `SystemExit: 1`): a process told by its parent to end
 * (vLLM's workers, as their executor shuts down), no more of why than a wrapper's pointer. Not an
 * interrupt: a bare `KeyboardInterrupt` is the signal that ended the run.
 */
export const isBareStop = (exception: string | null, message: string): boolean =>
  exception !== null && /(?:^|\.)SystemExit$/.test(exception) && /^(?:-?\d+|None)?$/.test(message.trim());
/**
 * Work cancelled as its process unwinds, raised as a plain error (vLLM's executor: `RuntimeError:
 * cancelled` for the calls pending when a worker died): the unwinding's, never a cause.
 */
export const saysCancelled = (message: string): boolean => /^cancell?ed\.?$/i.test(message.trim());

/**
 * A watcher's word that a process it watched is gone (psutil's, from SGLang's CPU monitor thread as its
 * children are ended): the watcher goes on, and whatever ended that process says why, if anything does.
 */
export const WATCHED_GONE = /(?:^|\.)(?:NoSuchProcess|ZombieProcess)$/;

/** What its channels and its engine raise as the process at the other end goes. */
const GONE = /(?:^|\.)(?:BrokenPipeError|ConnectionResetError|EngineDeadError|AsyncEngineDeadError)$/;
/**
 * ...unless they say it went unexpectedly (vLLM's `AsyncEngineDeadError: Task finished unexpectedly.`) or
 * carry the error it went of (a wrapper's `Model actor is out of memory ... CUDA out of memory`).
 */
const saysWhyGone = (message: string): boolean =>
  /\bunexpectedly\b/i.test(message) || hasFailureWords(message);

/**
 * What a message says when its process is being ended: closed channels, signals, cancelled work. Not a C++
 * runtime's `terminate called ...` or `terminating due to uncaught exception`: that is a crash of its own.
 */
const UNWINDING =
  /\b(?:shut ?down|shutting down|terminat\w*\b(?! (?:due to uncaught|with (?:uncaught|exception|an exception)|called))|cancel\w*\b(?! because)|interrupt\w*|killed|closed|signal|exit code -?\d+|exited|broken pipe|connection (?:reset|refused|closed|lost)|context canceled|event loop|dead)\b/i;

/**
 * Native code crashing in its teardown as the process exits: a segmentation fault, glibc's heap checks in
 * destructors, the abort after them. After a stop the process was ending anyway; the stop is what happened.
 */
const TEARDOWN_CRASH = new RegExp(
  String.raw`^(?:Fatal Python error: )?Segmentation fault|^Aborted(?: \(core dumped\))?\s*$|^(?:\*+ (?:Error in \x60[^\x60]*': )?)?(?:${HEAP_CHECKS})`,
);

/**
 * A resource the shutdown closed, used by a thread still running (LMCache's handler notifying an eventfd
 * already closed: `ValueError: file descriptor cannot be a negative integer (-1)`): the old process's
 * teardown, as long as nothing else was logged since its shutdown.
 */
const TEARDOWN_CLOSED =
  /\bfile descriptor cannot be a negative integer\b|\[Errno 9\] Bad file descriptor|\bI\/O operation on closed file\b|\bEvent loop is closed\b|\bcannot schedule new futures after (?:interpreter )?shutdown\b/;

/**
 * Whether an error is the shape of a process being stopped rather than a failure of its own: what a
 * server prints as it unwinds after a stop was asked for.
 */
export function isShutdownShaped(exception: string | null, message: string): boolean {
  return isStopShaped(exception, message) || UNWINDING.test(message);
}

/** A death's report that says what it does next (vLLM's `... died unexpectedly, shutting down client.`). */
export const DIED = /\bdied unexpectedly\b/i;

/**
 * Whether an error is a stop itself (a signal, a stopped task, the server's shutdown words), not merely
 * worded like an unwinding: after a shutdown said it was complete the process is gone, and a refused
 * connection or an exited peer logged then is the next run's. `teardown`: whether a native crash may still
 * be the old process's teardown (nothing else was logged since its shutdown).
 */
export function isStopShaped(exception: string | null, message: string, teardown = true): boolean {
  if (exception !== null && (STOPPED.test(exception) || (GONE.test(exception) && !saysWhyGone(message))))
    return true;
  return (
    isStopRequest(message) ||
    (isShutdownPhrase(message) && !DIED.test(message)) ||
    (teardown && exception === null && TEARDOWN_CRASH.test(message)) ||
    (teardown && TEARDOWN_CLOSED.test(message))
  );
}
