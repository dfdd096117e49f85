import type { CommandRunner } from '../system/run-command.js';
import type { ContainerRuntimeName } from './containers/index.js';

export type SourceSpec =
  /** Plain or gzip files ('-' is stdin), read one after the other as one log. */
  | { kind: 'files'; paths: string[] }
  /** A systemd unit's journal through journalctl, narrowed to its last failed invocation. */
  | { kind: 'unit'; unit: string; journalFile?: string[]; journalDir?: string; since?: string }
  /** A container's logs through its runtime (`docker`, `podman`: containers/). */
  | { kind: ContainerRuntimeName; container: string; since?: string }
  | { kind: 'kube'; pod: string; namespace?: string; container?: string; previous?: boolean };

export interface SourceIo {
  stdin: NodeJS.ReadableStream;
  /**
   * The descriptor `stdin` reads (0) when it is the process's own: a pipe or a file there is then read
   * synchronously into the diagnosis's buffers (read-files.ts). Absent when `stdin` is any other stream.
   */
  stdinFd?: number;
  /** Environment of spawned tools; its PATH decides which journalctl/docker/kubectl (or ssh) runs. */
  env: Record<string, string | undefined>;
  /** Starts every program the source needs: here (default) or on another host (ssh.ts). */
  runner?: CommandRunner;
}

export interface SourceOptions {
  /** Limit on each spawned command (journalctl, docker, kubectl); default five minutes. */
  timeoutMs?: number;
  /**
   * The consumer is done with each chunk before it asks for the next (it copies what it keeps): a plain
   * file may then be read into the same two buffers in turn instead of a fresh one per read.
   */
  reuseChunks?: boolean;
}

export interface OpenedSource {
  /** The log's bytes in large chunks (about 1 MiB from files). Iterating may throw a SourceError. */
  chunks: AsyncIterable<Uint8Array>;
  /**
   * Present when every input is plain text in a regular file or the process's stdin: reads the log's next bytes straight into
   * `target`, synchronously, and returns how many (0 at the end, when the files are closed). The same
   * bytes as `chunks`, without a copy or a thread between; use one or the other. Throws a SourceError.
   */
  readInto?: (target: Uint8Array) => number;
  /** Where the log came from, for the report: "logs/a.log, logs/b.log.gz", "journal of x.service, ...". */
  describe: string;
  /** The unit's full name (vllm.service) when the log is a unit's journal. */
  unit?: string;
  /** A unit's latest start is up after the failed one the log holds: when it began (`Feb 20 23:40:01`). */
  runningSince?: string;
  /** Transport formats the source itself decoded: 'gzip', 'journal-json', 'docker', 'kubectl'. */
  formats: string[];
  /** Problems that did not stop reading (a truncated gzip, a journalctl hint); complete after iterating. */
  warnings: string[];
  /**
   * Set while iterating when stdin or a pipe went on past its cap (LIMITS.pipeInputBytes): what was left
   * unread and what to do. A cut log's failure stands; its "no failure" does not (diagnose exits 2).
   */
  readonly cut?: string | undefined;
  /** Set while iterating when the stream broke off (a lost ssh connection): what came before is the log. */
  partial?: string;
}
