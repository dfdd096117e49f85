/** A vLLM worker's crash: a traceback ending in an illegal memory access. */
const CRASH =
  '(Worker_TP1 pid=9) ERROR 02-20 23:40:00 [multiproc_executor.py:671] Traceback (most recent call last):\n' +
  '(Worker_TP1 pid=9) ERROR 02-20 23:40:00 [multiproc_executor.py:671]   File "/x/worker.py", line 3, in run\n' +
  '(Worker_TP1 pid=9) ERROR 02-20 23:40:00 [multiproc_executor.py:671] RuntimeError: CUDA error: an illegal memory access was encountered\n';

/** About 3 MiB of serving chatter, then a worker's crash: more than a pipe holds, and than one read. */
export function longLog(): string {
  const chatter = Array.from(
    { length: 40_000 },
    (_, i) =>
      `(APIServer pid=7) INFO 02-20 23:31:${String(i % 60).padStart(2, '0')} [loggers.py:123] step ${i}\n`,
  ).join('');
  return `INFO 02-20 23:30:00 [api_server.py:1] vLLM API server version 0.11.0\n${chatter}${CRASH}`;
}
