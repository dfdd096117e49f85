import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { transports } from '../sources/index.js';
import { localRunner, type CommandRunner } from '../system/run-command.js';
import type { CliIo } from './io.js';
import { collectValues } from './collect-values.js';

/** The parsed options of every transport (`--ssh`…), by commander's camel-cased names. */
export type TransportFlags = object;

/** Adds each transport's options (sources/ssh.ts declares --ssh's); those for many hosts only where asked. */
export function addTransportOptions(command: Command, options: { hosts: boolean }): Command {
  for (const transport of transports) {
    for (const option of transport.options) {
      if (option.fleetOnly === true && !options.hosts) continue;
      const description =
        options.hosts && option.fleetDescription !== undefined ? option.fleetDescription : option.description;
      if (option.repeatable === true) command.option(option.flags, description, collectValues);
      else if (option.defaultValue !== undefined)
        command.option(option.flags, description, option.defaultValue);
      else command.option(option.flags, description);
    }
  }
  return command;
}

/** The hosts the options name, one runner each; none when the programs run here. */
export function chooseRunners(flags: TransportFlags, io: CliIo): CommandRunner[] {
  return transports.flatMap((transport) =>
    transport.runners(flags as Readonly<Record<string, unknown>>, io.cwd),
  );
}

/** The runner for a command that reads one host: the one named, else this machine. */
export function chooseRunner(flags: TransportFlags, io: CliIo): CommandRunner {
  const runners = chooseRunners(flags, io);
  if (runners.length > 1)
    throw new UsageError('give --ssh once here; a fleet of hosts is read by vigil diagnose');
  return runners[0] ?? localRunner;
}
