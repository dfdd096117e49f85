import { accessSync, constants, existsSync, mkdirSync, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Option, type Command } from 'commander';
import { locateInterpreter } from '../../environment/index.js';
import { describeError, UsageError } from '../../errors.js';
import { LIMITS } from '../../limits.js';
import { readRegularFile } from '../../system/read-regular-file.js';
import { checkFolders } from '../../system/trusted-path.js';
import { writeFileAtomic } from '../../system/write-file-atomic.js';
import {
  deriveProbeSettings,
  historyKey,
  historyPath,
  parseDuration,
  parseHealthUrl,
  readHistory,
  renderUnitFile,
  secretsOf,
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
  environmentFile?: string;
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
    .option(
      '--environment-file <path>',
      'file with tokens such as HF_TOKEN (default /etc/vigil/NAME.env); --env-file is the same',
    )
    // Kept for the units written with it; Node 20 reads --env-file among a script's arguments itself and
    // exits when the file is missing, so `node dist/cli/bin.js unit --env-file F` never reaches vigil.
    .addOption(new Option('--env-file <path>').hideHelp())
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
      const burst = parseBurst(flags.startLimitBurst);
      if (flags.vigil !== undefined && !isAbsolute(flags.vigil)) {
        // ExecStart=+/bin/sh would run as root whatever User= says: only a path, never a systemd prefix.
        throw new UsageError(
          `--vigil ${JSON.stringify(flags.vigil)} must be an absolute path (systemd reads a leading +, -, @, : or ! as a prefix)`,
        );
      }
      const program = resolveProgram(command, io);
      const environmentFile = flags.environmentFile ?? flags.envFile ?? `/etc/vigil/${name}.env`;
      const unit = renderUnitFile({
        name,
        command: program,
        ...withPython(program, io),
        args,
        description: flags.description,
        vigil: flags.vigil === undefined ? defaultVigilCommand() : [flags.vigil],
        environmentFile,
        user: flags.user,
        workingDirectory:
          flags.workingDirectory === undefined ? undefined : resolve(io.cwd, flags.workingDirectory),
        loadMs:
          flags.loadTime === undefined
            ? await measuredLoadMs(command, args, io)
            : parseUnitDuration(flags.loadTime, '--load-time'),
        gpuWaitSeconds: Math.ceil(parseUnitDuration(flags.gpuWait, '--gpu-wait') / 1000),
        restartSec: Math.ceil(parseUnitDuration(flags.restartSec, '--restart-sec') / 1000),
        startLimitBurst: burst,
        supervise: flags.supervise === true,
        healthUrl: flags.health,
      });
      // The unit says `--api-key ${VIGIL_API_KEY}`; the key itself goes to the environment file (0600).
      const secrets = secretsOf(args);
      if (secrets.length > 0) {
        await storeSecrets(environmentFile, secrets);
        io.stderr.write(
          `vigil: wrote ${secrets.map((secret) => secret.variable).join(', ')} to ${environmentFile} (mode 0600); the unit reads it from there\n`,
        );
      }
      io.stdout.write(unit);
      setExit(0);
    });
}

/** A value systemd's EnvironmentFile= reads back as written, unquoted. */
const PLAIN_VALUE = /^[A-Za-z0-9._~+/=:@,-]+$/;

/**
 * Sets each secret's line in the environment file, keeping its other lines: written whole through a rename
 * (write-file-atomic.ts, which refuses folders another user could swap), mode 0600.
 */
async function storeSecrets(path: string, secrets: { variable: string; value: string }[]): Promise<void> {
  for (const { variable, value } of secrets) {
    if (!PLAIN_VALUE.test(value))
      throw new UsageError(`the value of ${variable} holds characters an environment file would misread`);
  }
  const reading = readRegularFile(path, LIMITS.ruleFileBytes);
  if (reading.kind === 'unreadable') throw new UsageError(`cannot read ${path}: it ${reading.reason}`);
  const names = new Set(secrets.map((secret) => secret.variable));
  const kept = (reading.kind === 'text' ? reading.text.split('\n') : []).filter(
    (line) => line !== '' && !names.has(line.split('=')[0]?.trim() ?? ''),
  );
  const text = [...kept, ...secrets.map(({ variable, value }) => `${variable}=${value}`)].join('\n');
  checkFolders(path, '--environment-file');
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  try {
    await writeFileAtomic(path, `${text}\n`, { overwrite: true, mode: 0o600 });
  } catch (error) {
    throw new UsageError(describeError(error), { cause: error });
  }
}

/** systemd's StartLimitBurst= is an unsigned number; past a few thousand starts a limit means nothing. */
const MAX_BURST = 10_000;
/** The longest wait, load or pause a unit takes: a week, far inside systemd's and Node's timers. */
const MAX_UNIT_MS = 7 * 24 * 3600 * 1000;

function parseBurst(text: string): number {
  const burst = /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!Number.isInteger(burst) || burst < 1 || burst > MAX_BURST)
    throw new UsageError(
      `--start-limit-burst ${JSON.stringify(text)} must be a whole number from 1 to ${MAX_BURST}`,
    );
  return burst;
}

function parseUnitDuration(text: string, flag: string): number {
  const ms = parseDuration(text, flag);
  if (!Number.isFinite(ms) || ms > MAX_UNIT_MS)
    throw new UsageError(`${flag} ${JSON.stringify(text)} is longer than the 7d a unit may wait`);
  return ms;
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
