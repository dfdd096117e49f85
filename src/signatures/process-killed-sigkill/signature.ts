import { defineSignature } from '../define-signature.js';
import { EXIT_STATUS_WORDS } from '../../runtimes/signals/exit-status.js';

// A death with no cause in the log: the finding is how it died and where that is recorded. Its weight is
// the least, so a cause the log does hold is never outweighed by the death it led to.
export default defineSignature({
  id: 'process-killed-sigkill',
  title: 'the server was killed (SIGKILL, exit 137) and its log names no cause',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['killed', '137', '-9', 'kill'],
  match: {
    exception: null,
    // The shell's `Killed`, Go's `signal: killed`, systemd's status=9/KILL, 137 (128 + 9), Python's -9 and
    // torchrun's summary of its worker.
    message: new RegExp(
      String.raw`^Killed\s*$|\bSignal 9 \(SIGKILL\) received by PID\b|\bsignal: killed\b|\bline \d+: +\d+ Killed\b|\bstatus=9\/KILL\b|${EXIT_STATUS_WORDS}(?:137|-9|-SIGKILL)\b`,
    ),
  },
  explanation:
    "The process ended on SIGKILL: a shell prints Killed, docker and shells report 137 (128 + 9), Python's parent processes -9 and systemd status=9/KILL. SIGKILL cannot be caught, so the process could not log why. With no error before it, the sender is most often the kernel's OOM killer: the host's RAM or the container's memory limit (its cgroup) ran out, and loading weights passes through host memory, so a large model or several workers loading at once is the usual trigger. Otherwise a supervisor sent it: systemd after a stop or start timed out, Kubernetes after a failed liveness probe or an eviction, or someone's kill -9.",
  fix: "Find who sent the SIGKILL: `journalctl -k | grep -i -e oom -e killed` (or `dmesg -T`) for the OOM killer, `systemctl status UNIT` (Result: oom-kill or timeout), `docker inspect -f '{{.State.OOMKilled}} {{.State.ExitCode}}' NAME`, or `kubectl describe pod POD` (Last State: OOMKilled).",
  action: [
    {
      kind: 'inspect-exit',
      look: ['oom-killer'],
    },
    {
      kind: 'step',
      text: "If the OOM killer sent it: give the server more memory (the container's or pod's limit, the host's RAM or swap), or load with less (fewer workers loading at once, a smaller or quantized model).",
    },
  ],
  references: [
    'https://docs.docker.com/engine/containers/resource_constraints/',
    'https://kubernetes.io/docs/tasks/configure-pod-container/assign-memory-resource/',
    'https://www.gnu.org/software/bash/manual/html_node/Exit-Status.html',
  ],
  weight: 0.01,
});
