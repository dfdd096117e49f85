import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ray-version-mismatch',
  title: 'Ray or Python version differs from the running Ray cluster',
  category: 'distributed-ray',
  engines: ['vllm', 'sglang'],
  keywords: ['version mismatch: the cluster was started with'],
  match: {
    // Ray's check_version_info: a warning for a patch-level Python difference, this error otherwise.
    message: /(?<!patch )Version mismatch: The cluster was started with/,
  },
  explanation:
    'The process joined a Ray cluster that was started with another Ray release or Python version, and Ray refuses ' +
    'to mix them (the lines after the message list both). This happens when the engine runs in its own virtual ' +
    'environment or container while the cluster (often started by a platform such as GPUStack or KubeRay) uses ' +
    'another one.',
  fix:
    "Install in the engine's environment exactly the Ray version (and Python minor version) the cluster was started " +
    'with, e.g. `pip install "ray==<cluster version>"`, or restart the cluster (`ray stop; ray start ...`) from the ' +
    'same environment as the engine on every node.',
  action: [
    {
      kind: 'step',
      text: "Install in the engine's environment exactly the Ray version (and Python minor version) the cluster was started with, or restart the cluster (ray stop; ray start ...) from the engine's environment on every node",
    },
  ],
  alternative: "On a single node, vLLM's `--distributed-executor-backend mp` avoids Ray altogether.",
  references: ['https://github.com/ray-project/ray/blob/master/python/ray/_private/worker.py'],
});
