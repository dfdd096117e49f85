import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { SourceError, UsageError } from '../errors.js';
import { createSshRunner, type SshTarget } from '../sources/index.js';
import { localRunner, type CommandRunner } from '../system/run-command.js';
import type { CliIo } from './io.js';

export interface SshFlags {
  ssh?: string[];
  sshHosts?: string;
  sshConfig?: string;
  sshOption?: string[];
  sshTimeout?: string;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** --ssh DEST, --ssh-config FILE, --ssh-option KEY=VALUE, --ssh-timeout SECONDS; hosts only where asked. */
export function addSshOptions(command: Command, options: { hosts: boolean }): Command {
  command
    .option(
      '--ssh <dest>',
      options.hosts
        ? 'run the programs on this host over ssh (host, user@host, ssh://user@host:port); repeat for a fleet'
        : 'run the programs on this host over ssh (host, user@host, ssh://user@host:port)',
      collect,
    )
    .option('--ssh-config <file>', 'with --ssh: the ssh config file to use (ssh -F)')
    .option('--ssh-option <key=value>', 'with --ssh: an ssh option (ssh -o), repeatable', collect)
    .option('--ssh-timeout <seconds>', 'with --ssh: how long connecting may take', '10');
  if (options.hosts) command.option('--ssh-hosts <file>', 'a fleet of hosts, one ssh destination a line');
  return command;
}

/** The destinations asked for: --ssh flags, then the --ssh-hosts file's lines (# starts a comment). */
export function sshDestinations(flags: SshFlags, io: CliIo): string[] {
  const hosts = [...(flags.ssh ?? [])];
  if (flags.sshHosts !== undefined) {
    let text: string;
    try {
      text = readFileSync(resolve(io.cwd, flags.sshHosts), 'utf8');
    } catch (error) {
      throw new SourceError(
        `cannot read --ssh-hosts ${flags.sshHosts}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
        {
          cause: error,
        },
      );
    }
    for (const line of text.split('\n')) {
      const host = line.replace(/#.*/, '').trim();
      if (host !== '') hosts.push(host);
    }
    if (hosts.length === 0) throw new UsageError(`--ssh-hosts ${flags.sshHosts} names no host`);
  }
  if (hosts.length === 0 && (flags.sshConfig !== undefined || (flags.sshOption?.length ?? 0) > 0)) {
    throw new UsageError('--ssh-config and --ssh-option go with --ssh DEST');
  }
  return hosts;
}

export function toSshTarget(destination: string, flags: SshFlags, io: CliIo): SshTarget {
  const seconds = Number(flags.sshTimeout ?? '10');
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`--ssh-timeout takes seconds (e.g. 10), got "${flags.sshTimeout}"`);
  }
  return {
    destination,
    ...(flags.sshConfig === undefined ? {} : { configFile: resolve(io.cwd, flags.sshConfig) }),
    options: flags.sshOption ?? [],
    connectTimeoutMs: seconds * 1000,
  };
}

/** The runner for a command that reads one host: ssh when --ssh was given once, else this machine. */
export function chooseRunner(flags: SshFlags, io: CliIo): CommandRunner {
  const hosts = sshDestinations(flags, io);
  if (hosts.length > 1)
    throw new UsageError('give --ssh once here; a fleet of hosts is read by vigil diagnose');
  const [host] = hosts;
  return host === undefined ? localRunner : createSshRunner(toSshTarget(host, flags, io));
}
