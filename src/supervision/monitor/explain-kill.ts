/**
 * Who killed a server that died of a signal it did not send itself. Pure: the drivers read the evidence
 * (the kernel log, systemd's result, the container runtime's state, the pod's events) and pass it here.
 */

/** One Kubernetes event about the pod, as `kubectl get events --output=json` lists them. */
export interface PodEvent {
  reason?: string;
  message?: string;
  count?: number;
}

export interface KillEvidence {
  signal: string | null;
  /** The server's main process, to find its own line in the kernel log. */
  pid?: number | null;
  /** Kernel log lines (`journalctl -k`, /dev/kmsg); null when the kernel log could not be read. */
  kernelLines?: readonly string[] | null;
  /** systemd's result for the unit: `oom-kill`, `timeout`, `signal`. */
  systemdResult?: string | null;
  /** docker's State.OOMKilled, or Kubernetes' terminated reason (`OOMKilled`). */
  containerReason?: string | null;
  podEvents?: readonly PodEvent[] | null;
}

export interface KillFinding {
  /** Who it most likely was, in a few words: `the kernel's OOM killer`. */
  killer: string;
  /** The line that says so, with where it was read (`kernel: Out of memory: ...`), when one does. */
  evidence: string | null;
}

const OOM_KILL = /(Memory cgroup out of memory|Out of memory): Killed process (\d+) \(([^)]*)\)/;
const PROBE_FAILED = /^(Startup|Liveness|Readiness) probe failed/;
const PROBE_KILL = /failed (startup|liveness) probe, will be restarted/;

export function explainKill(evidence: KillEvidence): KillFinding | null {
  const probe = probeKill(evidence.podEvents ?? []);
  if (probe !== null) return probe;
  if (evidence.containerReason === 'OOMKilled' || evidence.containerReason === 'OOM killed') {
    return { killer: "the container's memory limit (the kernel's OOM killer in its cgroup)", evidence: null };
  }
  if (evidence.systemdResult === 'oom-kill') {
    return { killer: "the kernel's OOM killer (systemd's result: oom-kill)", evidence: null };
  }
  if (evidence.systemdResult === 'timeout') {
    return {
      killer: 'systemd: the start took longer than TimeoutStartSec (raise it, or `vigil unit` sizes it)',
      evidence: null,
    };
  }
  const pid = evidence.pid;
  for (const line of evidence.kernelLines ?? []) {
    const match = OOM_KILL.exec(line);
    if (match === null || (pid != null && Number(match[2]) !== pid)) continue;
    const killer =
      match[1] === 'Memory cgroup out of memory'
        ? "a memory limit on the server's cgroup (container or systemd MemoryMax): the kernel's OOM killer"
        : "the kernel's OOM killer: the host ran out of memory";
    return { killer, evidence: `kernel: ${line.trim()}` };
  }
  return null;
}

/** The kubelet killed the container because a probe failed: the last failed probe's message says which. */
function probeKill(events: readonly PodEvent[]): KillFinding | null {
  const kill = events.find((event) => PROBE_KILL.test(event.message ?? ''));
  if (kill === undefined) return null;
  const kind = PROBE_KILL.exec(kill.message ?? '')?.[1] ?? 'liveness';
  const failed = [...events]
    .reverse()
    .find((event) => event.reason === 'Unhealthy' && PROBE_FAILED.test(event.message ?? ''));
  return {
    killer: `the kubelet: the ${kind} probe failed${kind === 'startup' ? ' before the load finished (`vigil probe-config --kube` sizes it)' : ''}`,
    evidence: `pod event: ${(failed?.message ?? kill.message ?? '').trim()}`,
  };
}

/** Where a kill has no known killer: what was looked at, so the reader knows what is ruled out. */
export function describeUnexplainedKill(evidence: KillEvidence): string {
  if (evidence.kernelLines === null || evidence.kernelLines === undefined) {
    return 'the kernel log could not be read to look for an OOM kill: run as root, or in the systemd-journal or adm group';
  }
  return `the kernel log holds no OOM kill of PID ${evidence.pid ?? '?'}`;
}
