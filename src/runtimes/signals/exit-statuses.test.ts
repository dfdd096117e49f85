import { describe, expect, it } from 'vitest';
import { diagnose } from '../../diagnosis/index.js';

/** A start that got as far as loading and said nothing more of its own: what the death line alone must explain. */
const LOADING = [
  'INFO 12-03 10:15:02 [api_server.py:1090] vLLM API server version 0.11.0',
  '(EngineCore_DP0 pid=2211) INFO 12-03 10:15:18 [gpu_model_runner.py:2602] Starting to load model m...',
].join('\n');
const OLLAMA = (status: string): string =>
  'time=2025-01-14T09:12:03.131+01:00 level=INFO source=server.go:555 msg="waiting for llama runner to start responding"\n' +
  `time=2025-01-14T09:12:05.402+01:00 level=ERROR source=sched.go:455 msg="error loading llama server" error="llama runner process has terminated: exit status ${status}"`;
/** A server that became ready and served: a line after it that is no death leaves it healthy. */
const SERVING = [
  'INFO 12-03 10:16:02 [api_server.py:1880] Starting vLLM API server 0 on http://0.0.0.0:8000',
  'INFO:     Application startup complete.',
  'INFO:     10.0.0.7:51234 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
].join('\n');

describe('how a process died, decoded from the line that reports it', () => {
  it.each([
    ['Killed', 'process-killed-sigkill'],
    ['Killed ', 'process-killed-sigkill'],
    [
      './serve.sh: line 3:  4242 Killed                  python3 -m vllm.entrypoints.openai.api_server',
      'process-killed-sigkill',
    ],
    ['vllm-1 exited with code 137', 'process-killed-sigkill'],
    ['command terminated with exit code 137', 'process-killed-sigkill'],
    [
      'Dec 03 10:16:40 gpu-1 systemd[1]: vllm.service: Main process exited, code=killed, status=9/KILL',
      'process-killed-sigkill',
    ],
    ['Error: signal: killed', 'process-killed-sigkill'],
    ['ERROR 12-03 10:16:40 [engine.py:448] Engine process died with exit code -9', 'process-killed-sigkill'],
    [
      'E0302 10:03:02.118000 140 api.py:869] failed (exitcode: -9) local_rank: 1 (pid: 212) of binary: /usr/bin/python3',
      'process-killed-sigkill',
    ],
    ['Segmentation fault (core dumped)', 'process-segfault'],
    ['vllm-1 exited with code 139', 'process-segfault'],
    [
      "ERROR 12-03 10:16:40 [engine.py:448] Engine process failed to start: <SpawnProcess name='SpawnProcess-1' pid=5120 stopped exitcode=-11>",
      'process-segfault',
    ],
    [
      'Dec 03 10:16:40 gpu-1 systemd[1]: vllm.service: Main process exited, code=dumped, status=11/SEGV',
      'process-segfault',
    ],
    ['Aborted (core dumped)', 'process-aborted'],
    ['vllm-1 exited with code 134', 'process-aborted'],
    [
      '[2025-05-25 17:27:22] Subprocess scheduler_0 (pid=22741) crashed with exit code -6. Triggering SIGQUIT for cleanup...',
      'process-aborted',
    ],
    ['Illegal instruction (core dumped)', 'cpu-illegal-instruction'],
    ['vllm-1 exited with code 132', 'cpu-illegal-instruction'],
    ['Error: signal: illegal instruction (core dumped)', 'cpu-illegal-instruction'],
    [
      '[DEBUG] <qwen-coder-14B-FIM> cmd.Wait() returned error: signal: aborted (core dumped)',
      'process-aborted',
    ],
    ['vllm-1 exited with code 1', 'process-exited-with-error'],
    ['Process exited with exit status 2', 'process-exited-with-error'],
    // Windows prints a status that is no NTSTATUS in hexadecimal: -1 (fresh-u ollama-5553, Ollama's app.log).
    [
      'time=2025-10-23T12:03:05.608-04:00 level=ERROR source=server.go:194 msg="ollama exited" err="exit status 0xffffffff"',
      'process-exited-with-error',
    ],
    [
      'Dec 03 10:16:40 gpu-1 systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE',
      'process-exited-with-error',
    ],
    [
      '(EngineCore_DP0 pid=2211) ERROR 12-03 10:16:40 [multiproc_executor.py:154] Worker proc VllmWorker-1 died unexpectedly, shutting down executor.',
      'worker-died-unexpectedly',
    ],
    [
      '(APIServer pid=2200) ERROR 12-03 10:16:40 [core_client.py:564] Engine core proc EngineCore_DP0 died unexpectedly, shutting down client.',
      'worker-died-unexpectedly',
    ],
  ])('%s: %s', (line, id) => {
    const diagnosis = diagnose(`${LOADING}\n${line}\n`);
    expect(diagnosis.verdict).toBe('failure');
    expect(diagnosis.signature?.id).toBe(id);
  });

  it.each([
    ['0xc0000005', 'windows-access-violation'],
    ['0xc0000094', 'windows-integer-divide-by-zero'],
    ['0xc0000409', 'windows-stack-buffer-overrun'],
    ['0xc00000fd', 'windows-stack-overflow'],
    ['0xc000001d', 'cpu-illegal-instruction'],
    ['0xc0000135', 'windows-dll-load-failed'],
  ])('Ollama’s runner ended with NTSTATUS %s: %s', (status, id) => {
    const diagnosis = diagnose(`${OLLAMA(status)}\n`);
    expect(diagnosis.verdict).toBe('failure');
    expect(diagnosis.signature?.id).toBe(id);
  });

  it('an exit with status 1 is a failure whose meaning guesses no OOM killer', () => {
    const diagnosis = diagnose(`${LOADING}\nvllm-1 exited with code 1\n`);
    expect(diagnosis.verdict).toBe('failure');
    expect(`${diagnosis.signature?.explanation} ${diagnosis.signature?.fix}`).not.toMatch(
      /oom|out of memory/i,
    );
  });

  it('the cause the log holds outweighs the death it led to', () => {
    const oom =
      '(EngineCore_DP0 pid=2211) ERROR 12-03 10:16:01 [core.py:708] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 896.00 MiB.';
    for (const death of ['Killed', 'vllm-1 exited with code 137', 'vllm-1 exited with code 1']) {
      expect(diagnose(`${LOADING}\n${oom}\n${death}\n`).signature?.id, death).toBe('cuda-out-of-memory');
    }
  });

  it.each([
    'vllm-1 exited with code 0',
    'vllm-1 exited with code 143',
    'Dec 03 11:02:40 gpu-1 systemd[1]: vllm.service: Main process exited, code=exited, status=0/SUCCESS',
    'INFO 12-03 11:02:40 [multiproc_worker_utils.py:124] Worker VllmWorkerProcess pid 4242 died, exit code: -15',
    'INFO 12-03 11:02:40 [logger.py:40] Received request chatcmpl-5f: prompt: "It printed Killed and exit code 137", params: SamplingParams(n=1)',
  ])('a stop, or words at INFO, after serving is no death: %s', (line) => {
    expect(diagnose(`${LOADING}\n${SERVING}\n${line}\n`).verdict).toBe('no-failure');
  });
});
