import { aimFindings } from '../../fix/aim-findings.js';
import type { FixPlace } from '../../fix/fix-action.js';
import { readEnvironmentFacts } from '../../environment/read-crashed-environment.js';
import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { SourceError, UsageError, VigilError } from '../../errors.js';
import {
  runCheck,
  type CheckOptions,
  type CheckReport,
  type EnvironmentOptions,
} from '../../environment/index.js';
import { renderTerminationLog } from '../../reporting/termination-log.js';
import { renderCheck, type ReportFormat } from '../../reporting/check/index.js';
import { mirrorRemoteEnvironment } from '../../sources/remote-environment.js';
import type { CommandRunner } from '../../system/run-command.js';
import { replaceFile } from '../../system/safe-write.js';
import { terminalWidth, wantsColor, type CliIo } from '../io.js';
import { addTransportOptions, chooseRunner, chooseRunners } from '../transport-flags.js';
import type { SetExit } from './index.js';
import { COMMAND_SUMMARIES } from './summaries.js';

export interface EnvironmentFlags {
  python?: string;
  venv?: string;
  sitePackages?: string[];
}

interface CheckFlags extends EnvironmentFlags {
  skipPython?: boolean;
  gpu?: boolean;
  waitGpuFree?: string;
  model?: string;
  tp?: string;
  maxModelLen?: string;
  port?: string;
  against?: string;
  terminationLog?: string;
  format: ReportFormat;
}

/** --python / --venv / --site-packages, shared by check and snapshot. */
export function addEnvironmentOptions(command: Command, where: { remote?: boolean } = {}): Command {
  if (where.remote === true) addTransportOptions(command, { hosts: false });
  return command
    .option('--python <path>', 'the interpreter the server runs (asked once, with -I, for its paths)')
    .option(
      '--venv <dir>',
      'a virtual environment, read from its files (default: $VIRTUAL_ENV, else python3)',
    )
    .option(
      '--site-packages <dir>',
      'a site-packages folder to read as is (repeatable)',
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    );
}

/**
 * Runs `read` on the environment the flags name. With --ssh its metadata files are first mirrored here
 * (no tree copied, no pip run there); the mirror's folder is taken out of what `read` returns.
 */
export async function withEnvironment<T>(
  flags: EnvironmentFlags,
  io: CliIo,
  read: (options: EnvironmentOptions, runner: CommandRunner) => Promise<T>,
): Promise<T> {
  const runner = chooseRunner(flags, io);
  if (runner.host === null) return read(toEnvironmentOptions(flags, io), runner);
  const given = [flags.python, flags.venv, flags.sitePackages?.length ? 'x' : undefined];
  if (given.filter((value) => value !== undefined).length > 1) {
    throw new UsageError('give only one of --python, --venv and --site-packages');
  }
  const mirror = await mirrorRemoteEnvironment(
    { python: flags.python, venv: flags.venv, sitePackages: flags.sitePackages },
    runner,
    io.env,
  );
  try {
    const result = await read({ ...mirror.local, env: {}, cwd: io.cwd }, runner);
    // Paths in the result name the other host's files, as the user gave them.
    return JSON.parse(JSON.stringify(result).replaceAll(JSON.stringify(mirror.root).slice(1, -1), '')) as T;
  } finally {
    await mirror.remove();
  }
}

export function toEnvironmentOptions(flags: EnvironmentFlags, io: CliIo): EnvironmentOptions {
  return {
    python: flags.python,
    venv: flags.venv,
    sitePackages: flags.sitePackages,
    env: io.env,
    cwd: io.cwd,
  };
}

export function registerCheck(program: Command, io: CliIo, setExit: SetExit): void {
  addEnvironmentOptions(program.command('check').description(COMMAND_SUMMARIES.check.description), {
    remote: true,
  })
    .option(
      '--skip-python',
      'read no Python environment (a server that is not Python): GPU, host and model only',
    )
    .option('--gpu', 'a GPU must be present: no nvidia-smi is an error, not a note')
    .option('--wait-gpu-free <seconds>', 'first wait up to SECONDS for other processes to release GPU memory')
    .option('--model <dir>', 'a model folder with config.json to check against the engine and --tp')
    .option('--tp <n>', 'tensor-parallel size the server will use')
    .option('--max-model-len <n>', 'max model length the server will use')
    .option('--port <n>', 'the port the server will bind')
    .option(
      '--termination-log <path>',
      'on errors, write the first one (check id, message, fix; at most 4 KB) there, e.g. /dev/termination-log',
    )
    .argument('[server-command...]', 'the server command that will run, after --: its flags are checked')
    .option(
      '--against <snapshot.json>',
      'also flag lock-step families that moved in part since this snapshot',
    )
    .addOption(
      new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  vigil check --venv /opt/vllm --model /models/Qwen3-32B --tp 4 --port 8000\n' +
        '  vigil snapshot > before.json && pip install -U vllm && vigil check --against before.json\n' +
        '  vigil check --gpu --venv /opt/vllm -- vllm serve /models/Llama-3.1-8B --tp 2 --max-model-len 131072\n\n' +
        'Exit status: 0 no errors, 1 errors found, 2 usage or input error.\n' +
        'Without nvidia-smi the GPU checks are skipped with a note; with --gpu that is an error finding (exit 1).\n',
    )
    .action(async (serverCommand: string[], flags: CheckFlags) => {
      if (
        chooseRunners(flags, io).length > 0 &&
        (flags.model !== undefined || flags.port !== undefined || flags.waitGpuFree !== undefined)
      ) {
        throw new UsageError(
          '--model, --port and --wait-gpu-free read this host; run vigil check on the other host for them',
        );
      }
      const common = {
        skipPython: flags.skipPython === true,
        gpu: flags.gpu === true,
        model: flags.model,
        tp: parseCount(flags.tp, '--tp'),
        maxModelLen: parseCount(flags.maxModelLen, '--max-model-len'),
        port: parsePort(flags.port),
        against: flags.against,
        waitGpuFree: parseSeconds(flags.waitGpuFree),
        serverCommand,
      };
      const { report, host } = await withEnvironment(flags, io, async (environment, runner) => ({
        report: await runCheck({ ...environment, ...common, runner } satisfies CheckOptions),
        host: runner.host,
      }));
      const place: FixPlace = host === null ? { kind: 'local' } : { kind: 'ssh', host };
      // The same install as diagnose prints for this environment: its interpreter, uv or pip, over --ssh.
      report.findings = aimFindings(
        report.findings,
        report.environment,
        place,
        host === null ? readEnvironmentFacts : undefined,
      );
      io.stdout.write(renderCheck(report, flags.format, { color: wantsColor(io), width: terminalWidth(io) }));
      if (flags.terminationLog !== undefined)
        await writeTerminationLog(resolve(io.cwd, flags.terminationLog), report);
      setExit(report.findings.some((finding) => finding.severity === 'error') ? 1 : 0);
    });
}

/** The first error, for `kubectl describe pod` (the kubelet reads a container's termination message file). */
async function writeTerminationLog(path: string, report: CheckReport): Promise<void> {
  const first = report.findings.find((finding) => finding.severity === 'error');
  if (first === undefined) return;
  const text = renderTerminationLog({
    id: first.id,
    message: `${first.title}: ${first.detail}`,
    fix: first.fix ?? undefined,
  });
  try {
    await replaceFile(path, text, '--termination-log');
  } catch (error) {
    if (error instanceof VigilError) throw error;
    throw new SourceError(
      `cannot write --termination-log ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      { cause: error },
    );
  }
}

function parseCount(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`${flag} takes a positive whole number, got "${value}"`);
  return Number(value);
}

function parsePort(value: string | undefined): number | undefined {
  const port = parseCount(value, '--port');
  if (port !== undefined && port > 65535) throw new UsageError(`--port takes 1 to 65535, got "${value}"`);
  return port;
}

function parseSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds < 0) {
    throw new UsageError(`--wait-gpu-free takes seconds (e.g. 120), got "${value}"`);
  }
  return seconds;
}
