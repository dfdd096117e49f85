import { Command, CommanderError } from 'commander';
import { VigilError, describeError } from '../errors.js';
import { redactText } from '../redaction/index.js';
import type { CliIo } from './io.js';
import { registerCommands } from './commands/index.js';
import { VERSION } from './version.js';

export const EXIT = { clean: 0, finding: 1, usage: 2 } as const;

/**
 * Runs the CLI in-process and returns its exit code. Only bin.ts touches process.argv and process.exitCode.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.clean;
  const program = new Command('vigil')
    .description('Finds why an LLM inference server failed to start, and what will crash it before the load.')
    .version(VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // Commander prints "error: ..." itself; keep it to one line and point at --help.
      outputError: (text, write) =>
        write(`vigil: ${text.trim().replace(/^error: /, '')} (see vigil --help)\n`),
    });
  await registerCommands(
    program,
    io,
    (code) => {
      exitCode = code;
    },
    argv,
  );
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return error.exitCode === 0 ? EXIT.clean : EXIT.usage;
    }
    if (error instanceof VigilError) {
      // A tool's stderr quoted in the message may hold a URL with credentials.
      io.stderr.write(`vigil: ${redactText(error.message)}\n`);
      return error.exitCode;
    }
    const debug = io.env.VIGIL_DEBUG === '1';
    io.stderr.write(
      `vigil: internal error: ${describeError(error)}` +
        (debug
          ? `\n${error instanceof Error ? (error.stack ?? '') : ''}\n`
          : ' (this is a bug in vigil; run again with VIGIL_DEBUG=1 for the trace and report it)\n'),
    );
    return EXIT.usage;
  }
  return exitCode;
}
