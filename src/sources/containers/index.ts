import type { ContainerRuntime } from './container-runtime.js';
import { docker } from './docker.js';
import { podman } from './podman.js';

export * from './container-runtime.js';

/** Every container runtime a log can be read from; each is one file beside this one. */
export const containerRuntimes = [docker, podman] as const satisfies readonly ContainerRuntime[];

export type ContainerRuntimeName = (typeof containerRuntimes)[number]['name'];

export function findContainerRuntime(name: string): ContainerRuntime | undefined {
  const all: readonly ContainerRuntime[] = containerRuntimes;
  return all.find((runtime) => runtime.name === name);
}
