import { defineGrammar } from '../define-grammar.js';

/**
 * Kubernetes, as `kubectl describe pod` and `kubectl get events` print it: the kubelet's kill after a failed
 * probe, a pod no node can take, an image that cannot be pulled (`Reason: OOMKilled` is the signals runtime's, with the kernel's own OOM lines). The
 * server's own log says nothing of these: the kubelet or the scheduler acted on it from outside.
 */
export default defineGrammar({
  runtime: 'kubernetes',
  lines: [
    // `Normal  Killing  41s  kubelet  Container vllm failed liveness probe, will be restarted`: the
    // `Unhealthy ... probe failed` warnings before it are its symptoms, the kill is what ended the server.
    {
      id: 'kubelet-probe-kill',
      rank: 233,
      pattern: /\bContainer \S+ failed (?:liveness|startup) probe, will be restarted/,
      fatal: true,
      strength: 42,
      crash: true,
      message: (m) => m[0],
    },
    {
      id: 'pod-unschedulable',
      rank: 234,
      pattern: /\bFailedScheduling\b.*?(\d+\/\d+ nodes are available: .+)/,
      fatal: true,
      strength: 42,
      message: (m) => m[1] ?? '',
    },
    {
      id: 'image-pull-failed',
      rank: 235,
      pattern: /\b(Failed to pull image "[^"]+": .+)/,
      fatal: true,
      strength: 40,
      message: (m) => m[1] ?? '',
    },
  ],
});
