import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { containerRuntimes, type ContainerRuntime } from '../sources/containers/index.js';

/** One `--RUNTIME NAME` option per container runtime in sources/containers: `--docker`, `--podman`. */
export function addContainerOptions(command: Command, options: { many: boolean }): Command {
  for (const runtime of containerRuntimes) {
    if (options.many)
      command.option(
        `--${runtime.name} <containers...>`,
        `${runtime.program} containers' logs (several: a fleet)`,
      );
    else
      command.option(
        `--${runtime.name} <name>`,
        `a ${runtime.program} container, followed through ${runtime.program} logs`,
      );
  }
  return command;
}

export interface ChosenContainers {
  runtime: ContainerRuntime;
  names: string[];
}

/** The runtime whose option was given, and the names given with it; null when none was. */
export function chosenContainers(flags: object): ChosenContainers | null {
  const values = flags as Record<string, unknown>;
  const given = containerRuntimes
    .filter((runtime) => values[runtime.name] !== undefined)
    .map((runtime) => {
      const value = values[runtime.name];
      return { runtime, names: Array.isArray(value) ? value.map(String) : [String(value)] };
    });
  if (given.length > 1) {
    throw new UsageError(`give one of ${given.map(({ runtime }) => `--${runtime.name}`).join(', ')}`);
  }
  return given[0] ?? null;
}

/** The runtime `--compose PROJECT` lists: the first that knows compose's label (docker). */
export function composeRuntime(): ContainerRuntime {
  const all: readonly ContainerRuntime[] = containerRuntimes;
  const runtime = all.find((candidate) => candidate.composeLabel !== undefined);
  if (runtime === undefined) throw new UsageError('--compose needs a runtime that knows compose');
  return runtime;
}
