/**
 * Errors that cross a boundary. Each carries the exit code the CLI maps it to and keeps its cause.
 * Messages are one line that says what is wrong and what to do.
 */
export class VigilError extends Error {
  readonly exitCode: number = 2;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The command line was wrong: unknown flag, missing argument, bad value. */
export class UsageError extends VigilError {}

/** An input could not be read: missing file, folder, truncated gzip, failing journalctl. */
export class SourceError extends VigilError {}

/** A stream broke off after some output (a lost ssh connection): what came before may still be used. */
export class StreamInterruptedError extends SourceError {}

/** The Python environment or GPU could not be inspected. */
export class EnvironmentError extends VigilError {}

/** A user-supplied file (signature rules, snapshot) is invalid. */
export class ConfigError extends VigilError {}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
