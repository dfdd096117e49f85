import { createWriteStream, type WriteStream } from 'node:fs';
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { createDiagnosisSession } from '../../diagnosis/index.js';
import { UsageError } from '../../errors.js';
import { redactDiagnosis, redactLines } from '../../redaction/index.js';
import { loadSignatures } from '../../rules/load-user-signatures.js';
import { ENGINES, type Engine } from '../../types/diagnosis.js';
import type { Finding } from '../../checks/index.js';
import { parseServerFlags } from '../../engines/server-flags.js';
import { writeReportPage } from '../write-report-page.js';
import { openForAppend } from '../../system/safe-write.js';
import { checkFolders } from '../../system/trusted-path.js';
import { VigilError } from '../../errors.js';
import { renderReport, reportRenderer } from '../render-report.js';
import { aimFixAt } from '../aim-fix-at.js';
import {
  EXIT_PREFLIGHT,
  appendStart,
  createProgressDisplay,
  describeFailure,
  describeLeftovers,
  describeStall,
  downloadFolder,
  findLeftoverGpuProcesses,
  formatFailureReport,
  historyKey,
  historyPath,
  openStartRecorder,
  parseDuration,
  parseHealthUrl,
  readHistory,
  runPreflight,
  startsOf,
  statsOf,
  superviseServer,
  type ReportFormat,
  type SupervisionEvent,
} from '../../supervision/index.js';
import { formatDuration } from '../../progress/index.js';
import { terminalWidth, wantsColor, type CliIo } from '../io.js';
import { addEnvironmentOptions, toEnvironmentOptions, type EnvironmentFlags } from './check.js';
import type { SetExit } from './index.js';
import { collectValues } from '../collect-values.js';
import { COMMAND_SUMMARIES } from './summaries.js';

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
  stallAfter?: string;
  stallTimeout?: string;
  keepRunning?: boolean;
  terminationLog?: string;
  report?: string;
  metricsFile?: string;
  rules?: string[];
  modelList: boolean;
  killGrace: string;
}

/** Signals vigil passes on to the server instead of dying of them. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export function registerRun(program: Command, io: CliIo, setExit: SetExit): void {
  addEnvironmentOptions(program.command('run'))
    .description(COMMAND_SUMMARIES.run.description)
    .usage('[options] -- COMMAND [ARGS...]')
    .argument('<command>', 'the server program, e.g. vllm')
    .argument('[args...]', 'its arguments')
    .option('--health <url>', 'ready when this URL answers 2xx (default: the log’s own ready line)')
    .option('--health-interval <duration>', 'how often to ask the health URL', '2s')
    .option('--no-model-list', 'with --health: do not also ask the engine’s model list (/v1/models)')
    .option('--timeout <duration>', 'fail a start that is not ready in time, e.g. 20m')
    .option(
      '--stall-after <duration>',
      'warn when a phase goes this long without progress (default: from earlier starts, or the engine’s bound)',
    )
    .option('--stall-timeout <duration>', 'stop a start in which nothing advanced for this long')
    .option(
      '--kill-grace <duration>',
      'how long a server told to stop may take before SIGKILL (a second Ctrl-C sends it at once)',
      '10s',
    )
    .option('--keep-running', 'do not stop a server whose start failed (a dead engine, a hang, a timeout)')
    .option(
      '--termination-log <file>',
      'on failure, write a summary of at most 4 KB here (/dev/termination-log)',
    )
    .option(
      '--metrics-file <file>',
      'keep a node_exporter textfile here: phase, starts, failures, last ready',
    )
    .option('--report <file>', 'on failure, also write the diagnosis as one self-contained HTML page')
    .option('--rules <dir>', 'extra signature files, YAML or JSON (repeatable)', collectValues)
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
        'Exit status: the server’s own; 128+N when a signal N killed it (137: SIGKILL, e.g. the OOM killer);\n' +
        '124 when vigil stopped a start that was not ready in --timeout or stalled past --stall-timeout;\n' +
        '1 for another failed start (a dead engine, a hang); 2 for a usage error; 78 when the pre-flight check\n' +
        'refused the start (systemd: RestartPreventExitStatus=78).\n',
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
  const stallAfterMs =
    flags.stallAfter === undefined ? null : parseDuration(flags.stallAfter, '--stall-after');
  const stallTimeoutMs =
    flags.stallTimeout === undefined ? null : parseDuration(flags.stallTimeout, '--stall-timeout');
  const fatalGraceMs = parseDuration(flags.fatalGrace, '--fatal-grace');
  const killGraceMs = parseDuration(flags.killGrace, '--kill-grace');
  const color = wantsColor(io);
  // Files written only when the start fails: a path another user could redirect is refused now, not then.
  for (const [flag, file] of [
    ['--termination-log', flags.terminationLog],
    ['--metrics-file', flags.metricsFile],
    ['--report', flags.report],
  ] as const) {
    if (file !== undefined) checkWritePath(resolve(io.cwd, file), flag);
  }
  const { signatures, warnings: ruleWarnings } = await loadSignatures({
    rulesDirs: flags.rules ?? [],
    env: io.env,
  });
  // A broken or duplicate rule is said, and the start goes on with the other rules.
  for (const warning of ruleWarnings) io.stderr.write(`vigil: warning: ${warning}\n`);

  // What the pre-flight check found, for --report's page.
  let findings: Finding[] | null = null;
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
    if (!verdict.proceed) return EXIT_PREFLIGHT;
    findings = verdict.findings;
    const leftovers = await findLeftoverGpuProcesses({ ...io.env });
    if (leftovers.length > 0) io.stderr.write(`vigil: ${describeLeftovers(leftovers)}\n`);
  }

  const path = historyPath(io.env);
  const key = historyKey(command, args);
  const stored = flags.history ? await readHistory(path) : null;
  const history = stored === null ? [] : startsOf(stored, key);
  const log = flags.log === undefined ? null : openLog(resolve(io.cwd, flags.log), io);
  const display = createProgressDisplay({
    out: io.stderr,
    redraw: io.stderr.isTTY === true && io.env.TERM !== 'dumb',
    history,
  });
  const recorder = openStartRecorder({
    warn: (text) => io.stderr.write(`vigil: ${text}\n`),
    historyFile: flags.history ? path : null,
    key,
    stats: stored === null ? null : statsOf(stored, key),
    metricsFile: flags.metricsFile === undefined ? null : resolve(io.cwd, flags.metricsFile),
    terminationLog: flags.terminationLog === undefined ? null : resolve(io.cwd, flags.terminationLog),
  });
  const quiet = flags.quiet === true;

  const onEvent = (event: SupervisionEvent): void => {
    switch (event.type) {
      case 'progress':
        display.update(event.state, event.elapsedMs);
        recorder.progress(event.state, event.elapsedMs);
        break;
      case 'stalled':
        display.say(`vigil: warning: ${describeStall(event.stall)}`);
        recorder.verdict('stalled');
        break;
      case 'resumed':
        display.say(`vigil: moving again after ${formatDuration(event.afterMs)} in this phase`);
        recorder.verdict('loading');
        break;
      case 'ready':
        display.say(`vigil: ready after ${formatDuration(event.elapsedMs)}`);
        display.close();
        if (flags.history && event.record !== null) {
          const record = event.record;
          recorder.track(
            appendStart(path, key, record).catch((error: unknown) => {
              io.stderr.write(`vigil: could not record the start-up time in ${path}: ${String(error)}\n`);
            }),
          );
        }
        recorder.ready();
        break;
      case 'failure': {
        display.close();
        // The same fix as `vigil diagnose` prints: aimed at the crashed venv, the engine and this machine.
        const failure = { ...event.failure, diagnosis: aimFixAt(event.failure.diagnosis, { kind: 'local' }) };
        if (flags.report !== undefined) {
          recorder.track(
            writeReportPage(resolve(io.cwd, flags.report), failure, startedAtMs, flags.redact, io, findings),
          );
        }
        io.stdout.write(
          formatFailureReport(failure, {
            format: flags.format,
            color,
            render: reportRenderer(flags.redact, terminalWidth(io)),
            redactLines: flags.redact ? redactLines : undefined,
            notes:
              flags.keepRunning === true && failure.exit === null
                ? ['the server is left running (--keep-running)']
                : [],
          }),
        );
        recorder.failed(
          flags.redact ? { ...failure, diagnosis: redactDiagnosis(failure.diagnosis) } : failure,
          describeFailure(failure),
        );
        break;
      }
      case 'fatal-while-serving':
        io.stderr.write('vigil: a fatal error appeared while the server is serving; it still answers:\n');
        io.stderr.write(
          renderReport(aimFixAt(event.diagnosis, { kind: 'local' }), {
            format: 'text',
            color,
            redact: flags.redact,
          }),
        );
        break;
    }
  };

  const model = parseServerFlags([command, ...args]).model ?? undefined;
  const startedAtMs = Date.now();
  const handle = await superviseServer({
    command,
    args,
    env: { ...io.env },
    cwd: io.cwd,
    engine: flags.engine ?? null,
    healthUrl,
    askModelList: flags.modelList,
    healthIntervalMs,
    timeoutMs,
    history,
    stallAfterMs,
    stallTimeoutMs,
    fatalGraceMs,
    killGraceMs,
    keepRunning: flags.keepRunning === true,
    downloadFolder: model === undefined ? null : downloadFolder(model, io.env),
    stdout: quiet ? null : display.wrap(io.stdout),
    stderr: quiet ? null : display.wrap(io.stderr),
    log,
    createDiagnosisSession: () => createDiagnosisSession({ signatures }),
    onEvent,
  });
  recorder.started();

  const forward = (signal: NodeJS.Signals): void => {
    handle.forward(signal);
  };
  for (const signal of FORWARDED) process.on(signal, forward);
  try {
    const result = await handle.done;
    display.close();
    if (result.outcome === 'exited' && !result.ready && !quiet) {
      io.stderr.write(`vigil: the server exited with status 0 after ${formatDuration(result.ranMs)}\n`);
    }
    if (result.outcome === 'interrupted' || result.outcome === 'exited') recorder.verdict('exited');
    await recorder.close();
    return result.exitCode;
  } finally {
    for (const signal of FORWARDED) process.off(signal, forward);
    await closeLog(log);
  }
}

function openLog(path: string, io: CliIo): WriteStream {
  // Opened without following a link, and checked on the descriptor: a regular file (a FIFO's open would
  // block, a device such as /dev/full fails every write; /dev/null is let through), of one name, root's
  // when root writes (safe-write.ts). Vigil often runs as root beside a server user who owns the folder.
  let fd: number;
  try {
    fd = openForAppend(path, '--log');
  } catch (error) {
    if (error instanceof VigilError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
  const stream = createWriteStream('', { fd, flags: 'a' });
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

function checkWritePath(path: string, flag: string): void {
  try {
    checkFolders(path, flag);
  } catch (error) {
    if (error instanceof VigilError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
}

function closeLog(stream: WriteStream | null): Promise<void> {
  if (stream === null || stream.destroyed) return Promise.resolve();
  return new Promise((done) => stream.end(done));
}
