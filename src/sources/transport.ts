import type { CommandRunner } from '../system/run-command.js';

/** One command-line option of a transport, as data: the CLI adds it to each command that reads a host. */
export interface TransportOption {
  /** Commander's form: `--ssh <dest>`. */
  flags: string;
  description: string;
  /** Given once per value (`--ssh a --ssh b`). */
  repeatable?: boolean;
  defaultValue?: string;
  /** Only on commands that read a fleet of hosts (diagnose). */
  fleetOnly?: boolean;
  /** The description there, when it says more (how to name many). */
  fleetDescription?: string;
}

/**
 * A way to run the log programs somewhere else: the options that ask for it, and the command runners
 * they name, one per host. Every log target takes a runner, so a transport is its file and nothing more.
 */
export interface Transport {
  name: string;
  options: readonly TransportOption[];
  /**
   * The runners the parsed options name (commander's camel-cased keys), one per host; none when this
   * transport was not asked for. Throws a UsageError or SourceError in one line. `cwd` resolves files.
   */
  runners(flags: Readonly<Record<string, unknown>>, cwd: string): CommandRunner[];
}

export function defineTransport(transport: Transport): Transport {
  return transport;
}
