import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { locateInterpreter } from '../../environment/index.js';
import { UsageError } from '../../errors.js';
import {
  deriveProbeSettings,
  historyKey,
  historyPath,
  parseDuration,
  parseHealthUrl,
  readHistory,
  renderUnitFile,
  renderWatcherUnit,
  startsOf,
  validateServiceName,
} from '../../supervision/index.js';
import type { CliIo } from '../io.js';
import type { SetExit } from './index.js';
import { isStandalone } from '../describe-install.js';
import { COMMAND_SUMMARIES } from './summaries.js';

interface UnitFlags {
  name: string;
  description?: string;
  user?: string;
  workingDirectory?: string;
  envFile?: string;
  loadTime?: string;
  gpuWait: string;
  restartSec: string;
  startLimitBurst: string;
  supervise?: boolean;
  health?: string;
  vigil?: string;
  watcher?: boolean;
}

export function registerUnit(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('unit')
    .description(COMMAND_SUMMARIES.unit.description)
    .usage('--name NAME [options] -- COMMAND [ARGS...]')
    .argument('<command>', 'the server program; looked up on PATH when not a path')
    .argument('[args...]', 'its arguments')
    .requiredOption('--name <name>', 'unit name, e.g. vllm-qwen (".service" is added)')
    .option('--description <text>', 'the unit’s Description=')
    .option('--user <user>', 'run the server as this user')
    .option('--working-directory <dir>', 'the server’s working directory')
    .option('--env-file <path>', 'file with tokens such as HF_TOKEN (default /etc/vigil/NAME.env)')
    .option(
      '--load-time <duration>',
      'expected time from start to ready; sizes the timeouts (default: the slowest start `vigil run` measured, else 20m)',
    )
    .option('--gpu-wait <duration>', 'how long ExecStartPre waits for GPU memory to be freed', '5m')
    .option('--restart-sec <duration>', 'pause before a restart', '30s')
    .option('--start-limit-burst <n>', 'starts allowed before systemd gives up', '3')
    .option('--supervise', 'run the server under `vigil run`: progress and crash reports land in the journal')
    .option('--health <url>', 'with --supervise: ready when this URL answers 2xx')
    .option('--vigil <path>', 'path of vigil on the target host (default: this one)')
    .option(
      '--watcher',
      'a unit for `vigil watch --follow` itself (hardened); the arguments after -- are the watch’s',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  vigil unit --name vllm-qwen --supervise --health http://127.0.0.1:8000/health -- vllm serve Qwen/Qwen2.5-7B-Instruct > vllm-qwen.service\n' +
        '  vigil unit --name vigil-watch --watcher -- --unit vllm-qwen --alertmanager http://127.0.0.1:9093 > vigil-watch.service\n',
    )
    .action(async (command: string, args: string[], flags: UnitFlags) => {
      if (flags.watcher === true) {
        io.stdout.write(
          renderWatcherUnit({
            name: flags.name,
            vigil: flags.vigil === undefined ? defaultVigilCommand() : [flags.vigil],
            watchArgs: [command, ...args],
            user: flags.user,
            description: flags.description,
          }),
        );
        setExit(0);
        return;
      }
      const name = validateServiceName(flags.name);
      if (flags.health !== undefined) parseHealthUrl(flags.health);
      const burst = Number(flags.startLimitBurst);
      if (!Number.isInteger(burst) || burst < 1)
        throw new UsageError('--start-limit-burst must be a whole number ≥ 1');
      const program = resolveProgram(command, io);
      io.stdout.write(
        renderUnitFile({
          name,
          command: program,
          ...withPython(program, io),
          args,
          description: flags.description,
          vigil: flags.vigil === undefined ? defaultVigilCommand() : [flags.vigil],
          environmentFile: flags.envFile ?? `/etc/vigil/${name}.env`,
          user: flags.user,
          workingDirectory:
            flags.workingDirectory === undefined ? undefined : resolve(io.cwd, flags.workingDirectory),
          loadMs:
            flags.loadTime === undefined
              ? await measuredLoadMs(command, args, io)
              : parseDuration(flags.loadTime, '--load-time'),
          gpuWaitSeconds: Math.ceil(parseDuration(flags.gpuWait, '--gpu-wait') / 1000),
          restartSec: Math.ceil(parseDuration(flags.restartSec, '--restart-sec') / 1000),
          startLimitBurst: burst,
          supervise: flags.supervise === true,
          healthUrl: flags.health,
        }),
      );
      setExit(0);
    });
}

/**
 * The slowest start `vigil run` recorded for this command line (under its name as given, or its PATH
 * path): the unit's timeouts lie above it, as the startup probe's window does. Undefined without history.
 */
async function measuredLoadMs(command: string, args: string[], io: CliIo): Promise<number | undefined> {
  const starts = startsOf(await readHistory(historyPath(io.env)), historyKey(command, args));
  return deriveProbeSettings(starts).slowestMs ?? undefined;
}

/**
 * What ExecStartPre checks: the server's own interpreter (environment/locate-interpreter.ts), or no Python
 * at all when the command does not say: under systemd, PATH's python3 is seldom the server's, and its
 * problems must not stop a healthy server.
 */
function withPython(program: string, io: CliIo): { python?: string; venv?: string } {
  const found = locateInterpreter(program, io.env, io.cwd);
  if (found === null) return {};
  return found.interpreter === found.venv ? { venv: found.interpreter } : { python: found.interpreter };
}

/** systemd wants an absolute ExecStart path: the program as PATH finds it here. */
function resolveProgram(command: string, io: CliIo): string {
  if (isAbsolute(command)) return command;
  if (command.includes('/')) return resolve(io.cwd, command);
  for (const dir of (io.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  throw new UsageError(`${command} was not found on PATH; give the server program as an absolute path`);
}

/**
 * The command that runs this vigil: this Node and the real path of its script, so the unit does not
 * depend on the PATH or the node of the shell that wrote it. `--` ends Node's own options: Node 20 reads
 * `--env-file` anywhere before it, even among the script's arguments.
 */
function defaultVigilCommand(): string[] {
  // The standalone binary is itself the vigil to run.
  if (isStandalone()) return [process.execPath];
  const script = fileURLToPath(new URL('../bin.js', import.meta.url));
  const real = existsSync(script) ? realpathSync(script) : script;
  if (/[\\/]_npx[\\/]/.test(real)) {
    throw new UsageError(
      `vigil runs from npx's cache (${real}), which npm may delete: install it (npm install -g vigil-llm) or give --vigil PATH`,
    );
  }
  return [process.execPath, '--', real];
}
