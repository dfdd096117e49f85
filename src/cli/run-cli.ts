import { Command, CommanderError } from 'commander';
import { VigilError, describeError } from '../errors.js';
import { redactText } from '../redaction/index.js';
import { sanitizeSink } from '../reporting/sanitize-output.js';
import { wantsColor, type CliIo } from './io.js';
import { registerCommands } from './commands/index.js';
import { describeVersion, findInstall } from './describe-install.js';

export const EXIT = { clean: 0, finding: 1, usage: 2 } as const;

/**
 * Runs the CLI in-process and returns its exit code. Only bin.ts touches process.argv and process.exitCode.
 */
export async function runCli(argv: string[], rawIo: CliIo): Promise<number> {
  // The one place text leaves Vigil: whatever a log, a rule or a flag put in it, no control character
  // reaches the terminal except the colour codes and the progress line's clear-line Vigil writes itself.
  const colour = { colour: wantsColor(rawIo) };
  const stdout = sanitizeSink(rawIo.stdout, colour);
  const stderr = sanitizeSink(rawIo.stderr, colour);
  // Copied as descriptors, not spread: a spread reads the `stdin` getter, and bin.ts makes Node's stdin
  // stream only when a command reads it.
  const io = Object.defineProperties({} as CliIo, {
    ...Object.getOwnPropertyDescriptors(rawIo),
    stdout: { value: stdout, enumerable: true },
    stderr: { value: stderr, enumerable: true },
  });
  try {
    return await runProgram(argv, io);
  } finally {
    stdout.flush();
    stderr.flush();
  }
}

async function runProgram(argv: string[], io: CliIo): Promise<number> {
  let exitCode: number = EXIT.clean;
  const program = new Command('vigil')
    .description('Finds why an LLM inference server failed to start, and what will crash it before the load.')
    .version(
      describeVersion(findInstall(io.env, import.meta.url), {
        node: process.versions.node,
        platform: process.platform,
        arch: process.arch,
        execPath: process.execPath,
      }),
      '-V, --version',
    )
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
