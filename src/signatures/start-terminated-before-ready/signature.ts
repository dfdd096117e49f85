import { defineSignature } from '../define-signature.js';

// A start ended from outside before it was ready: the finding is who ended it. Its weight is the least, as
// for the other deaths with no cause in the log, so the log's own cause wins wherever it holds one.
export default defineSignature({
  id: 'start-terminated-before-ready',
  title: 'the start was ended by SIGTERM before the server became ready',
  category: 'other',
  engines: ['vllm'],
  keywords: ['keyboardinterrupt'],
  match: {
    exception: 'KeyboardInterrupt',
    // vLLM's handler for SIGTERM raises KeyboardInterrupt("terminated") in the API server.
    message: /\bterminated\b/,
  },
  explanation:
    'The server had not finished starting (no ready line) when a SIGTERM reached it, and it ended there; no error ' +
    'of its own came before. Something outside ended the start: most often a supervisor that gave up waiting for a ' +
    "load that takes minutes (systemd's TimeoutStartSec, a Kubernetes startup or liveness probe, a script's " +
    'timeout), or an operator or deployment replacing it.',
  fix: "Find who sent the signal and let the load finish: systemd logs `start operation timed out` (raise TimeoutStartSec=), Kubernetes records the probe that failed in the pod's events (`kubectl describe pod`; raise the startup probe's failureThreshold or initialDelaySeconds), a script's timeout is in the script.",
  action: [
    {
      kind: 'step',
      text: "Find who sent SIGTERM and let the load finish: systemd says `start operation timed out` (raise TimeoutStartSec=); Kubernetes records a failed probe in the pod's events (kubectl describe pod; raise the startup probe's failureThreshold); a script's own timeout is in the script.",
    },
  ],
  references: [
    'https://www.freedesktop.org/software/systemd/man/latest/systemd.service.html#TimeoutStartSec=',
    'https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/',
  ],
  weight: 0.01,
});
