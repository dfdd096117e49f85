import { createWriteStream, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { createDiagnosisSession } from '../../diagnosis/index.js';
import { UsageError } from '../../errors.js';
import { redactText } from '../../redaction/index.js';
import { ENGINES, type Engine } from '../../types/diagnosis.js';
import { renderReport, reportRenderer } from '../render-report.js';
import {
  appendStart,
  createProgressDisplay,
  formatFailureReport,
  historyKey,
  historyPath,
  parseDuration,
  parseHealthUrl,
  readHistory,
  runPreflight,
  startsOf,
  superviseServer,
  type ReportFormat,
  type SupervisionEvent,
} from '../../supervision/index.js';
import { formatDuration } from '../../progress/index.js';
import { wantsColor, type CliIo } from '../io.js';
import { addEnvironmentOptions, toEnvironmentOptions, type EnvironmentFlags } from './check.js';
import type { SetExit } from './index.js';

interface RunFlags extends EnvironmentFlags {
  redact: boolean;
  health?: string;
  healthInterval: string;
  timeout?: string;
  fatalGrace: string;
  quiet?: boolean;
  log?: string;
  engine?: Engine;
  preflight: boolean;
  force?: boolean;
  format: ReportFormat;
  history: boolean;
}

/** Signals vigil passes on to the server instead of dying of them. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function registerRun(program: Command, io: CliIo, setExit: SetExit): void {
  addEnvironmentOptions(program.command('run'))
    .description(
      'start an inference server, show its start-up progress, and explain a crash the moment it happens',
    )
    .usage('[options] -- COMMAND [ARGS...]')
    .argument('<command>', 'the server program, e.g. vllm')
    .argument('[args...]', 'its arguments')
    .option('--health <url>', 'ready when this URL answers 2xx (default: the log’s own ready line)')
    .option('--health-interval <duration>', 'how often to ask the health URL', '2s')
    .option('--timeout <duration>', 'fail a start that is not ready in time, e.g. 20m')
    .option(
      '--fatal-grace <duration>',
      'how long a server that printed a fatal error may take to exit',
      '15s',
    )
    .option('-q, --quiet', 'hide the server’s output (progress and reports still show)')
    .option('--log <file>', 'append a copy of the server’s output to FILE')
    .addOption(
      new Option('--engine <name>', 'the engine, when the command does not show it').choices(ENGINES),
    )
    .option('--no-preflight', 'skip `vigil check` before the start')
    .option('--force', 'start even when the pre-flight check finds errors')
    .addOption(
      new Option('--format <format>', 'crash report format')
        .choices(['text', 'json', 'markdown'])
        .default('text'),
    )
    .option('--no-redact', 'show tokens and passwords in the crash report as they are in the log')
    .option('--no-history', 'neither read nor record start-up times (no ETA)')
    .addHelpText(
      'after',
      '\nExamples:\n  vigil run --health http://127.0.0.1:8000/health --timeout 20m -- vllm serve Qwen/Qwen2.5-7B-Instruct\n' +
        '  vigil run --quiet --log server.log -- python3 -m sglang.launch_server --model-path /models/x\n\n' +
        'Exit status: the server’s own; 1 when it crashed, timed out or hung; 2 for a usage error.\n',
    )
    .action(async (command: string, args: string[], flags: RunFlags) => {
      setExit(await runServer(command, args, flags, io));
    });
}

async function runServer(command: string, args: string[], flags: RunFlags, io: CliIo): Promise<number> {
  const healthUrl = flags.health === undefined ? null : parseHealthUrl(flags.health);
  const healthIntervalMs = parseDuration(flags.healthInterval, '--health-interval');
  if (healthIntervalMs < 100) throw new UsageError('--health-interval must be at least 100ms');
  const timeoutMs = flags.timeout === undefined ? null : parseDuration(flags.timeout, '--timeout');
  const fatalGraceMs = parseDuration(flags.fatalGrace, '--fatal-grace');
  const color = wantsColor(io);

  if (flags.preflight) {
    const environment = toEnvironmentOptions(flags, io);
    const verdict = await runPreflight({
      io,
      color,
      force: flags.force === true,
      command,
      args,
      environment,
    });
    if (!verdict.proceed) return 1;
  }

  const path = historyPath(io.env);
  const key = historyKey(command, args);
  const history = flags.history ? startsOf(await readHistory(path), key) : [];
  const log = flags.log === undefined ? null : await openLog(resolve(io.cwd, flags.log), io);
  const display = createProgressDisplay({
    out: io.stderr,
    redraw: io.stderr.isTTY === true && io.env.TERM !== 'dumb',
    history,
  });
  const quiet = flags.quiet === true;
  let historyWrite: Promise<void> = Promise.resolve();

  const onEvent = (event: SupervisionEvent): void => {
    switch (event.type) {
      case 'progress':
        display.update(event.state, event.elapsedMs);
        break;
      case 'ready':
        display.say(`vigil: ready after ${formatDuration(event.elapsedMs)}`);
        display.close();
        if (flags.history && event.record !== null) {
          const record = event.record;
          historyWrite = appendStart(path, key, record).catch((error: unknown) => {
            io.stderr.write(`vigil: could not record the start-up time in ${path}: ${String(error)}\n`);
          });
        }
        break;
      case 'failure':
        display.close();
        io.stdout.write(
          formatFailureReport(event.failure, {
            format: flags.format,
            color,
            render: reportRenderer(flags.redact),
            redact: flags.redact ? redactText : undefined,
          }),
        );
        break;
      case 'fatal-while-serving':
        io.stderr.write('vigil: a fatal error appeared while the server is serving; it still answers:\n');
        io.stderr.write(renderReport(event.diagnosis, { format: 'text', color, redact: flags.redact }));
        break;
    }
  };

  const handle = await superviseServer({
    command,
    args,
    env: { ...io.env },
    cwd: io.cwd,
    engine: flags.engine ?? null,
    healthUrl,
    healthIntervalMs,
    timeoutMs,
    fatalGraceMs,
    stdout: quiet ? null : display.wrap(io.stdout),
    stderr: quiet ? null : display.wrap(io.stderr),
    log,
    createDiagnosisSession: () => createDiagnosisSession(),
    onEvent,
  });

  const forward = (signal: NodeJS.Signals): void => handle.forward(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  try {
    const result = await handle.done;
    display.close();
    if (result.outcome === 'exited' && !result.ready && !quiet) {
      io.stderr.write(`vigil: the server exited with status 0 after ${formatDuration(result.ranMs)}\n`);
    }
    await historyWrite;
    return result.exitCode;
  } finally {
    for (const signal of FORWARDED) process.off(signal, forward);
    await closeLog(log);
  }
}

async function openLog(path: string, io: CliIo): Promise<WriteStream> {
  // Opening a FIFO for writing blocks until a reader comes, and a device (/dev/full) fails on every write:
  // only a file (or /dev/null) is a log.
  const info = await stat(path).catch(() => null);
  if (info !== null && !info.isFile() && !(info.isCharacterDevice() && path === '/dev/null')) {
    throw new UsageError(`--log ${path} is not a regular file; give a file to append the server's output to`);
  }
  const stream = createWriteStream(path, { flags: 'a' });
  await new Promise<void>((done, fail) => {
    stream.once('open', () => done());
    stream.once('error', (error) => fail(new UsageError(`cannot write --log ${path}: ${error.message}`)));
  });
  // A full disk later: one line, and the server runs on without its copy.
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (stream.destroyed) return;
    io.stderr.write(
      `vigil: cannot write --log ${path}: ${error.code ?? error.message}; the copy stops here\n`,
    );
    stream.destroy();
  });
  return stream;
}

function closeLog(stream: WriteStream | null): Promise<void> {
  if (stream === null || stream.destroyed) return Promise.resolve();
  return new Promise((done) => stream.end(done));
}
