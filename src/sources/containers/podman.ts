import { defineContainerRuntime } from './container-runtime.js';

/**
 * `--podman NAME`: `podman logs` and `podman inspect --type=container`, whose arguments and output are
 * docker's (inspect's State carries Status, Running, Restarting, OOMKilled, ExitCode and StartedAt, with a
 * zone offset that `podman logs --since` takes back). No --compose: podman-compose's labels are not ours
 * to guess.
 */
export const podman = defineContainerRuntime({ name: 'podman', program: 'podman' });
