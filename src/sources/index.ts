import { StreamInterruptedError } from '../errors.js';
import { localRunner, type CommandRunner } from '../system/run-command.js';
import { findContainerRuntime, openContainerLogs } from './containers/index.js';
import { openUnitJournal } from './journal/read-unit-journal.js';
import { openKubeLogs } from './kubectl.js';
import { openFiles } from './read-files.js';
import { openRemoteFiles } from './remote-files.js';
import { sshTransport } from './ssh.js';
import type { Transport } from './transport.js';
import type { OpenedSource, SourceIo, SourceOptions, SourceSpec } from './types.js';

export type { OpenedSource, SourceIo, SourceOptions, SourceSpec } from './types.js';
export { createSshRunner, type SshTarget } from './ssh.js';
export type { Transport, TransportOption } from './transport.js';

/** Every way to run the log programs on another host; each is one file (ssh.ts). */
export const transports: readonly Transport[] = [sshTransport];

const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;

/**
 * Opens a log source. Problems found before reading (missing file, bad name, missing journalctl) reject
 * here; problems while reading (corrupt gzip, a failing docker) throw from `chunks`. Both are SourceError
 * or UsageError with a one-line message. Read `warnings` and `partial` after iterating. Every program
 * runs through `io.runner`, on this host unless it says otherwise; `describe` then names the host.
 */
export async function openSource(
  spec: SourceSpec,
  io: SourceIo,
  options: SourceOptions = {},
): Promise<OpenedSource> {
  const runner = io.runner ?? localRunner;
  const opened = await openOn(spec, io, options);
  if (runner.host === null) return opened;
  return keepPartial({ ...opened, describe: onHost(opened.describe, runner) });
}

/** A description of what was read, with the host it was read on when that is not this one. */
export function onHost(describe: string, runner: CommandRunner = localRunner): string {
  return runner.host === null ? describe : `${describe} on ${runner.host}`;
}

function openOn(spec: SourceSpec, io: SourceIo, options: SourceOptions): Promise<OpenedSource> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const runner = io.runner ?? localRunner;
  switch (spec.kind) {
    case 'files':
      return runner.host === null
        ? openFiles(spec.paths, io, { reuseChunks: options.reuseChunks === true })
        : openRemoteFiles(spec.paths, runner, io.env, timeoutMs);
    case 'unit':
      return openUnitJournal(spec, runner, io.env, timeoutMs);
    case 'kube':
      return openKubeLogs(spec, runner, io.env, timeoutMs);
    default: {
      const runtime = findContainerRuntime(spec.kind);
      if (runtime === undefined) throw new Error(`no log target ${spec.kind}`);
      return openContainerLogs(runtime, spec, runner, io.env, timeoutMs);
    }
  }
}

/**
 * A stream that broke off after some output (a lost connection) ends there instead of failing: the log
 * read so far is diagnosed and the source says it is partial.
 */
export function keepPartial(opened: OpenedSource): OpenedSource {
  const source: OpenedSource = { ...opened };
  const chunks = opened.chunks;
  source.chunks = (async function* () {
    let bytes = 0;
    try {
      for await (const chunk of chunks) {
        bytes += chunk.length;
        yield chunk;
      }
    } catch (error) {
      if (!(error instanceof StreamInterruptedError) || bytes === 0) throw error;
      source.partial = error.message;
      source.warnings.push(error.message);
    }
  })();
  delete source.readInto;
  return source;
}
export { findSourceOwner, type SourceOwner } from './find-owner.js';
