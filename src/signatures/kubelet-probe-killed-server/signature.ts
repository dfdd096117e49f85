import { defineSignature } from '../define-signature.js';

// A server that loads for minutes answers no health check until it is ready: a liveness or startup probe
// sized for a web service kills it mid-load, and the restart loads again, forever.
export default defineSignature({
  id: 'kubelet-probe-killed-server',
  title: 'the kubelet restarted the server after a health probe failed',
  category: 'config-invalid',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'lmdeploy', 'llamacpp', 'ollama'],
  keywords: ['probe, will be restarted'],
  match: {
    exception: null,
    message: /\bContainer \S+ failed (?<probe>liveness|startup) probe, will be restarted/,
  },
  explanation:
    'Kubernetes killed the container because its {probe} probe failed: the server did not answer its ' +
    'health check in time. A model server answers none while it loads, which takes minutes, so a probe ' +
    'sized for a web service kills it mid-load and every restart starts the load again. When it had ' +
    'been serving, the server stopped answering: its own log (the previous container) says why.',
  fix: "Give the load time: a startupProbe whose failureThreshold x periodSeconds exceeds the longest load (vigil probe-config --kube -- COMMAND measures it); if it had been serving, read the previous container's log",
  action: [
    {
      kind: 'step',
      text: "Give the start-up time to load: add a startupProbe whose failureThreshold × periodSeconds exceeds the longest load (`vigil probe-config --kube -- COMMAND` measures a start and prints the probes), so the liveness probe only begins once the server is up. If it had been serving, read the previous container's log (`kubectl logs --previous POD`) for what stopped it answering.",
    },
  ],
  references: [
    'https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/',
    'https://github.com/triton-inference-server/server/issues/7154',
  ],
});
