import { describe, expect, it } from 'vitest';
import { readLineTime } from './read-line-time.js';

describe('readLineTime', () => {
  it.each([
    ['journald short', 'Feb 20 23:31:07 llm-two systemd[1]: Started x.service.', '23:31:07'],
    ['journald, one-digit day', 'Mar  1 04:05:06 host vllm[1]: INFO x', '04:05:06'],
    ['docker -t', '2026-02-20T23:31:07.123456789Z INFO 02-20 23:31:07 [api_server.py:1] x', '23:31:07'],
    ['kubectl --prefix --timestamps', '[pod/vllm-0/vllm] 2026-02-20T23:31:08Z hello', '23:31:08'],
    ['python logging', '2026-02-20 23:31:09,123 - root - INFO - x', '23:31:09'],
    ['vLLM header after a process tag', '(Worker_TP0 pid=12) ERROR 02-20 23:31:42 [x.py:1] boom', '23:31:42'],
    ['vLLM header', 'INFO 02-20 23:31:19 [api_server.py:1900] vLLM API server version 0.16.0', '23:31:19'],
    [
      "glog's header (torch's elastic agent)",
      'W0604 21:27:22.481000 416 torch/distributed/elastic/agent/server/api.py:739] Received 15 death signal',
      '21:27:22',
    ],
    ['glog after a rank', '[rank0]:E0731 16:03:52.112000 1 ProcessGroupNCCL.cpp:1] x', '16:03:52'],
  ])('reads %s', (_name, line, clock) => {
    expect(readLineTime(line)?.clock).toBe(clock);
  });

  it.each([
    ['no time', 'Traceback (most recent call last):'],
    ['a time inside the message only', 'RuntimeError: timed out at 23:31:07'],
    ['month 13', '2026-13-20T23:31:07Z x'],
    ['an empty line', ''],
  ])('gives null for %s', (_name, line) => {
    expect(readLineTime(line)).toBeNull();
  });

  it('orders times across midnight and months', () => {
    const times = ['Feb 28 23:59:59 h a[1]: x', 'Mar  1 00:00:01 h a[1]: x', 'Mar  1 00:00:02 h a[1]: x'].map(
      (line) => readLineTime(line)?.ms ?? Number.NaN,
    );
    expect(times[1]! - times[0]!).toBeGreaterThan(0);
    expect(times[2]! - times[1]!).toBe(1000);
  });
});
