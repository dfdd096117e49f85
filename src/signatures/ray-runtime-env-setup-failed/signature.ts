import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'ray-runtime-env-setup-failed',
  title: 'Ray could not build the runtime environment for its workers',
  category: 'distributed-ray',
  engines: ['vllm', 'sglang', 'trtllm'],
  keywords: ['runtimeenvsetuperror', 'failed to set up runtime environment'],
  match: {
    message: /RuntimeEnvSetupError|Failed to set up runtime environment/,
  },
  explanation:
    'Before starting a worker actor, Ray prepares the runtime environment it was given (pip/conda packages, ' +
    'working_dir upload, env vars) on that node, and this step failed, so the actor never started. Common causes ' +
    'are a pip install that fails or cannot reach the index on a worker node, a working directory above the ' +
    'upload size limit, or a setup timeout.',
  fix: 'Read the lines after `Failed to set up runtime environment.`, fix that step (install the packages in the node images instead of `runtime_env.pip`, exclude large files from `working_dir`), then restart the Ray cluster.',
  alternative:
    'Raise the time allowed with `RuntimeEnvConfig(setup_timeout_seconds=...)` when the setup is only slow; the ' +
    'per-node log /tmp/ray/session_latest/logs/runtime_env_setup-*.log has the full output.',
  references: [
    'https://github.com/ray-project/ray/blob/master/python/ray/exceptions.py',
    'https://docs.ray.io/en/latest/ray-core/handling-dependencies.html',
  ],
});
