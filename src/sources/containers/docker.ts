import { defineContainerRuntime } from './container-runtime.js';

/** `--docker NAME`: `docker logs` and `docker inspect`; `--compose PROJECT` by docker compose's label. */
export const docker = defineContainerRuntime({
  name: 'docker',
  program: 'docker',
  composeLabel: 'com.docker.compose.project',
});
