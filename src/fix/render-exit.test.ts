import { describe, expect, it } from 'vitest';
import type { ExitRecord, FixPlace } from './fix-action.js';
import { renderInspectExit } from './render-exit.js';

const render = (place: FixPlace, look: ExitRecord[], unit: string | null = null): string[] =>
  renderInspectExit({ kind: 'inspect-exit', look }, { place, environment: null, engine: 'vllm', unit }).lines;

const LOCAL: FixPlace = { kind: 'local' };
const SSH: FixPlace = { kind: 'ssh', host: 'gpu-1' };
const DOCKER: FixPlace = { kind: 'container', runtime: 'docker', name: 'vllm' };
const PODMAN_OVER_SSH: FixPlace = { kind: 'container', runtime: 'podman', name: 'vllm', host: 'gpu-1' };
const POD: FixPlace = { kind: 'pod', name: 'vllm-0', namespace: 'llm' };
const INSPECT = `inspect -f '{{.State.OOMKilled}} {{.State.ExitCode}} {{.State.Error}}' vllm`;

describe('where a death with no cause is recorded, for each place', () => {
  it.each<[string, FixPlace, ExitRecord[], string | null, string[]]>([
    [
      'this machine, a unit: its result and the OOM killer in the kernel log',
      LOCAL,
      ['oom-killer'],
      'vllm.service',
      ['systemctl status vllm.service --no-pager', 'journalctl -k --no-pager | grep -i -e oom -e killed'],
    ],
    [
      'this machine, no unit known: the systemctl line in words',
      LOCAL,
      ['oom-killer'],
      null,
      [
        '# under systemd: systemctl status UNIT shows Result: oom-kill, timeout or signal',
        'journalctl -k --no-pager | grep -i -e oom -e killed',
      ],
    ],
    [
      'over ssh: each command one quoted word, filtered here',
      SSH,
      ['oom-killer', 'core-dump'],
      'vllm.service',
      [
        "ssh gpu-1 'systemctl status vllm.service --no-pager'",
        "ssh gpu-1 'journalctl -k --no-pager' | grep -i -e oom -e killed",
        "ssh gpu-1 'journalctl -k --no-pager' | grep -i -e segfault -e traps: -e general.protection",
        "ssh gpu-1 'coredumpctl list --no-pager'",
      ],
    ],
    [
      'a container: its state says whether the OOM killer ended it',
      DOCKER,
      ['oom-killer'],
      null,
      [`docker ${INSPECT}`, 'journalctl -k --no-pager | grep -i -e oom -e killed'],
    ],
    [
      'a container over ssh: inspect and the kernel log on its host',
      PODMAN_OVER_SSH,
      ['oom-killer'],
      null,
      [
        `ssh gpu-1 'podman inspect -f '\\''{{.State.OOMKilled}} {{.State.ExitCode}} {{.State.Error}}'\\'' vllm'`,
        "ssh gpu-1 'journalctl -k --no-pager' | grep -i -e oom -e killed",
      ],
    ],
    [
      'a pod: its last state; the node’s kernel log in words',
      POD,
      ['oom-killer'],
      null,
      [
        'kubectl describe pod vllm-0 -n llm',
        '# Last State: Terminated, its Reason (OOMKilled, Error) and Exit Code; the Events below it',
        "# on the pod's node: journalctl -k --no-pager | grep -i -e oom -e killed",
      ],
    ],
    [
      'a pod, an illegal instruction: the CPU flags through kubectl exec',
      POD,
      ['cpu-flags'],
      null,
      [
        'kubectl describe pod vllm-0 -n llm',
        '# Last State: Terminated, its Reason and Exit Code; the Events below it',
        'kubectl exec vllm-0 -n llm -- cat /proc/cpuinfo | grep -o -w -e avx -e avx2 -e avx512f -e fma -e f16c | sort -u',
      ],
    ],
  ])('%s', (_name, place, look, unit, lines) => {
    expect(render(place, look, unit)).toEqual(lines);
  });

  it('an exit with an error status names no killer: no OOM anywhere', () => {
    for (const place of [LOCAL, SSH, DOCKER, POD]) {
      const lines = render(place, []).filter((line) => !line.includes('{{.State.OOMKilled}}'));
      expect(lines.join('\n')).not.toMatch(/oom/i);
    }
  });
});
