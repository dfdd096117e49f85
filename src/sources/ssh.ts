import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SourceError, StreamInterruptedError, UsageError } from '../errors.js';
import {
  localRunner,
  pickLine,
  startCommand,
  type CommandEnd,
  type CommandResult,
  type CommandRunner,
} from '../system/run-command.js';
import { defineTransport } from './transport.js';

// `--ssh DEST`: the log programs (journalctl, docker, kubectl, cat, find, python) run on another host
// through the local ssh client and their output is read here. The whole transport is this file.

/** `--ssh DEST`, `--ssh-config FILE`, `--ssh-option KEY=VALUE`: how to reach the other host. */
export interface SshTarget {
  /** Anything ssh accepts: `host`, `user@host`, `ssh://user@host:port`, a Host alias of the config. */
  destination: string;
  configFile?: string;
  /** KEY=VALUE pairs passed as `-o`; they win over Vigil's defaults, except BatchMode. */
  options?: string[];
  /** How long connecting may take (ssh ConnectTimeout); default 10 s. */
  connectTimeoutMs?: number;
}

const DEFAULT_CONNECT_MS = 10_000;

/**
 * Quotes one argument for a POSIX shell. ssh joins the remote command into one line that the other
 * host's shell splits again: inside single quotes nothing is special, and a quote itself is closed,
 * escaped and reopened.
 */
export function quoteForShell(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** The remote command line: `exec` so the program is the session's process and dies with it. */
export function remoteCommandLine(program: string, args: readonly string[]): string {
  return ['exec', program, ...args].map(quoteForShell).join(' ');
}

/** Refuses a destination or option that ssh would read as something else (an option, two words). */
export function validateSshTarget(target: SshTarget): void {
  const dest = target.destination;
  if (dest === '' || dest.startsWith('-') || /[\s\0]/.test(dest)) {
    throw new UsageError(
      `invalid --ssh destination ${JSON.stringify(dest)}: give host, user@host or ssh://user@host:port`,
    );
  }
  for (const option of target.options ?? []) {
    if (!/^[A-Za-z][A-Za-z0-9]*=[^\n\r\0]*$/.test(option)) {
      throw new UsageError(
        `invalid --ssh-option ${JSON.stringify(option)}: use KEY=VALUE, e.g. --ssh-option Port=2222`,
      );
    }
  }
}

/** ssh's own arguments, before the destination. */
export function sshArguments(target: SshTarget): string[] {
  const seconds = Math.max(1, Math.ceil((target.connectTimeoutMs ?? DEFAULT_CONNECT_MS) / 1000));
  // ssh keeps the first value it is given for an option: BatchMode first (a prompt would hang the read),
  // then the user's options, then our defaults, which theirs override.
  const args = ['-o', 'BatchMode=yes'];
  if (target.configFile !== undefined) args.push('-F', target.configFile);
  for (const option of target.options ?? []) args.push('-o', option);
  args.push(
    '-o',
    `ConnectTimeout=${seconds}`,
    '-o',
    'ServerAliveInterval=15',
    '-o',
    'ServerAliveCountMax=3',
    '-T',
  );
  return args;
}

/**
 * What ssh's exit says, in one line. ssh exits 255 for its own failures and prints why on stderr; any
 * other status is the remote program's; the remote shell answers 127 for a missing one, 126 for one it cannot run.
 */
export function explainSshEnd(
  destination: string,
  program: string,
  end: Pick<CommandEnd, 'code' | 'stderrTail' | 'bytes'>,
): SourceError | undefined {
  if (end.code === 127) {
    return new SourceError(
      `${program} was not found on ${destination}; install it there, or copy the log here and pass the file`,
    );
  }
  if (end.code === 126)
    return new SourceError(`${program} could not be run on ${destination}: permission denied`);
  if (end.code !== 255) return undefined;
  const text = end.stderrTail;
  const said = pickLine(text, 'last') ?? 'ssh printed no error';
  const reason = SSH_FAILURES.find(([pattern]) => pattern.test(text));
  if (reason?.[2] === 'lost' || (reason === undefined && end.bytes > 0)) {
    return new StreamInterruptedError(
      `lost the connection to ${destination} after ${end.bytes} bytes (${said}); the log read so far was diagnosed`,
    );
  }
  const words = reason === undefined ? `ssh failed: ${said}` : reason[1];
  return new SourceError(`cannot reach ${destination} over ssh: ${words}`);
}

// The order matters: a changed host key is also a failed verification.
const SSH_FAILURES: [RegExp, string, 'connect' | 'lost'][] = [
  [
    /Could not resolve hostname|Name or service not known|nodename nor servname/i,
    'unknown host (check the name, or give it in --ssh-config)',
    'connect',
  ],
  [
    /REMOTE HOST IDENTIFICATION HAS CHANGED/,
    'its host key has changed since it was recorded in known_hosts; if the change is expected, remove the old key with ssh-keygen -R',
    'connect',
  ],
  [
    /Host key verification failed|No \S+ host key is known/i,
    'its host key is not in known_hosts; connect once with ssh to accept it, or pass --ssh-option UserKnownHostsFile=FILE',
    'connect',
  ],
  [
    /Permission denied \(/,
    'the key was refused (Permission denied); load it in ssh-agent or pass --ssh-option IdentityFile=PATH',
    'connect',
  ],
  [/Connection refused/i, 'connection refused (is sshd running on that port?)', 'connect'],
  [
    /Connection timed out|Operation timed out|timed out during banner exchange/i,
    'no answer within the connect timeout',
    'connect',
  ],
  [/Network is unreachable|No route to host/i, 'no route to the host', 'connect'],
  [
    /closed by remote host|Connection reset|Broken pipe|Timeout, server .* not responding|client_loop/i,
    'the connection was lost',
    'lost',
  ],
];

/**
 * A runner that starts each program on another host through the local ssh client: the program and its
 * arguments quoted into one remote line, BatchMode on, ssh's failures worded in one line. The remote side
 * needs only the programs the local one would (journalctl, docker, kubectl, cat, python).
 */
export function createSshRunner(target: SshTarget, local: CommandRunner = localRunner): CommandRunner {
  validateSshTarget(target);
  const base = sshArguments(target);
  const argv = (program: string, args: string[]): string[] => [
    ...base,
    '--',
    target.destination,
    remoteCommandLine(program, args),
  ];
  const missingHint = 'install openssh-client to use --ssh';
  return {
    host: target.destination,
    async run(program, args, options): Promise<CommandResult> {
      const result = await local.run('ssh', argv(program, args), {
        ...options,
        label: options.label ?? `${program} on ${target.destination}`,
      });
      // Only ssh's own failures throw; the remote program's status (127: missing) is the caller's to read.
      if (result.code !== 255) return result;
      const error = explainSshEnd(target.destination, program, {
        code: result.code,
        stderrTail: result.stderr.slice(-8192),
        bytes: result.stdout.length,
      });
      if (error !== undefined) throw error;
      return result;
    },
    start(program, args, options) {
      return startCommand(
        'ssh',
        argv(program, args),
        { ...options, label: options.label ?? program, missingHint },
        (end) => explainSshEnd(target.destination, program, end),
      );
    },
  };
}

interface SshFlags {
  ssh?: string[];
  sshHosts?: string;
  sshConfig?: string;
  sshOption?: string[];
  sshTimeout?: string;
}

/** The destinations asked for: --ssh flags, then the --ssh-hosts file's lines (# starts a comment). */
function sshDestinations(flags: SshFlags, cwd: string): string[] {
  const hosts = [...(flags.ssh ?? [])];
  if (flags.sshHosts !== undefined) {
    let text: string;
    try {
      text = readFileSync(resolve(cwd, flags.sshHosts), 'utf8');
    } catch (error) {
      throw new SourceError(
        `cannot read --ssh-hosts ${flags.sshHosts}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
        { cause: error },
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

function toSshTarget(destination: string, flags: SshFlags, cwd: string): SshTarget {
  const seconds = Number(flags.sshTimeout ?? '10');
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new UsageError(`--ssh-timeout takes seconds (e.g. 10), got "${flags.sshTimeout}"`);
  }
  return {
    destination,
    ...(flags.sshConfig === undefined ? {} : { configFile: resolve(cwd, flags.sshConfig) }),
    options: flags.sshOption ?? [],
    connectTimeoutMs: seconds * 1000,
  };
}

/** --ssh DEST, --ssh-config FILE, --ssh-option KEY=VALUE, --ssh-timeout SECONDS, --ssh-hosts FILE. */
export const sshTransport = defineTransport({
  name: 'ssh',
  options: [
    {
      flags: '--ssh <dest>',
      description: 'run the programs on this host over ssh (host, user@host, ssh://user@host:port)',
      fleetDescription:
        'run the programs on this host over ssh (host, user@host, ssh://user@host:port); repeat for a fleet',
      repeatable: true,
    },
    { flags: '--ssh-config <file>', description: 'with --ssh: the ssh config file to use (ssh -F)' },
    {
      flags: '--ssh-option <key=value>',
      description: 'with --ssh: an ssh option (ssh -o), repeatable',
      repeatable: true,
    },
    {
      flags: '--ssh-timeout <seconds>',
      description: 'with --ssh: how long connecting may take',
      defaultValue: '10',
    },
    {
      flags: '--ssh-hosts <file>',
      description: 'a fleet of hosts, one ssh destination a line',
      fleetOnly: true,
    },
  ],
  runners(flags, cwd) {
    const given = flags as SshFlags;
    return sshDestinations(given, cwd).map((host) => createSshRunner(toSshTarget(host, given, cwd)));
  },
});
