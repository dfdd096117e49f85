import { describe, expect, it } from 'vitest';
import { describeUnexplainedKill, explainKill, type KillEvidence } from './explain-kill.js';

// Kernel lines as mm/oom_kill.c prints them (5.x and 6.x).
const HOST_OOM =
  'Out of memory: Killed process 4242 (python3) total-vm:98765432kB, anon-rss:87654321kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:180000kB oom_score_adj:0';
const CGROUP_OOM =
  'Memory cgroup out of memory: Killed process 4242 (python3) total-vm:98765432kB, anon-rss:87654321kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:180000kB oom_score_adj:0';

describe('explainKill', () => {
  it.each<[string, KillEvidence, RegExp | null]>([
    [
      'the host OOM killer, by PID',
      { signal: 'SIGKILL', pid: 4242, kernelLines: [HOST_OOM] },
      /^the kernel's OOM killer: the host ran out of memory$/,
    ],
    [
      'a cgroup limit, by PID',
      { signal: 'SIGKILL', pid: 4242, kernelLines: [CGROUP_OOM] },
      /memory limit on the server's cgroup/,
    ],
    ['another process’s OOM kill is not ours', { signal: 'SIGKILL', pid: 7, kernelLines: [HOST_OOM] }, null],
    [
      'systemd’s oom-kill result',
      { signal: 'SIGKILL', systemdResult: 'oom-kill' },
      /OOM killer \(systemd's result: oom-kill\)/,
    ],
    ['systemd’s start timeout', { signal: 'SIGKILL', systemdResult: 'timeout' }, /TimeoutStartSec/],
    ['docker’s OOMKilled', { signal: null, containerReason: 'OOMKilled' }, /container's memory limit/],
    [
      'a failed liveness probe, from the pod’s events',
      {
        signal: 'SIGKILL',
        podEvents: [
          {
            reason: 'Unhealthy',
            message:
              'Liveness probe failed: Get "http://10.0.0.7:8000/health": dial tcp 10.0.0.7:8000: connect: connection refused',
          },
          { reason: 'Killing', message: 'Container vllm failed liveness probe, will be restarted' },
        ],
      },
      /^the kubelet: the liveness probe failed$/,
    ],
    ['nothing that says who', { signal: 'SIGKILL', pid: 4242, kernelLines: [] }, null],
  ])('%s', (_name, evidence, killer) => {
    const found = explainKill(evidence);
    if (killer === null) expect(found).toBeNull();
    else expect(found?.killer).toMatch(killer);
  });

  it('keeps the line that says so, and the probe’s own message', () => {
    expect(explainKill({ signal: 'SIGKILL', pid: 4242, kernelLines: [HOST_OOM] })?.evidence).toBe(
      `kernel: ${HOST_OOM}`,
    );
    const probe = explainKill({
      signal: 'SIGKILL',
      podEvents: [
        { reason: 'Unhealthy', message: 'Startup probe failed: HTTP probe failed with statuscode: 503' },
        { reason: 'Killing', message: 'Container vllm failed startup probe, will be restarted' },
      ],
    });
    expect(probe).toEqual({
      killer:
        'the kubelet: the startup probe failed before the load finished (`vigil probe-config --kube` sizes it)',
      evidence: 'pod event: Startup probe failed: HTTP probe failed with statuscode: 503',
    });
  });

  it('says what was looked at when no killer is known', () => {
    expect(describeUnexplainedKill({ signal: 'SIGKILL', pid: 4242, kernelLines: [] })).toBe(
      'the kernel log holds no OOM kill of PID 4242',
    );
    expect(describeUnexplainedKill({ signal: 'SIGKILL', pid: 4242, kernelLines: null })).toMatch(
      /the kernel log could not be read/,
    );
  });
});
