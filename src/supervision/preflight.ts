import { existsSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import type { CliIo } from '../cli/io.js';
import { runCheck, type CheckOptions, type EnvironmentOptions } from '../environment/index.js';
import { describeError } from '../errors.js';
import { renderCheck } from '../reporting/check/index.js';
import { modelOfServerArgs, serverFlag } from './server-args.js';

export interface PreflightOptions {
  io: CliIo;
  color: boolean;
  /** Start even when the check finds errors. */
  force: boolean;
  command: string;
  args: readonly string[];
  /** --python / --venv / --site-packages given to vigil run; otherwise found from the command. */
  environment: EnvironmentOptions;
}

export interface PreflightVerdict {
  proceed: boolean;
}

/** What the server's own flags tell the check: its port, tensor-parallel size, model folder, length. */
export function checkOptionsFromServerArgs(args: readonly string[], cwd: string): Partial<CheckOptions> {
  const value = (...names: string[]): string | undefined => serverFlag(args, ...names);
  const count = (text: string | undefined): number | undefined =>
    text !== undefined && /^\d+$/.test(text) && Number(text) > 0 ? Number(text) : undefined;
  const port = count(value('--port'));
  const model = modelOfServerArgs(args);
  const modelDir = model === undefined ? undefined : resolve(cwd, model);
  return {
    port: port !== undefined && port <= 65535 ? port : undefined,
    tp: count(value('--tensor-parallel-size', '-tp', '--tp', '--tp-size', '--num-shard')),
    maxModelLen: count(value('--max-model-len', '--context-length', '--max-total-tokens')),
    model: modelDir !== undefined && existsSync(join(modelDir, 'config.json')) ? modelDir : undefined,
  };
}

/**
 * The server's Python environment, from its command: `/opt/venv/bin/vllm` lives in the venv /opt/venv,
 * `/usr/bin/python3 -m sglang...` is the interpreter itself. Null when the command does not say.
 */
export function environmentOfCommand(
  command: string,
  env: Record<string, string | undefined>,
): EnvironmentOptions {
  const path = findProgram(command, env);
  if (path === null) return {};
  if (/^python[\d.]*$/.test(basename(path))) return { python: path };
  const prefix = dirname(dirname(path));
  if (basename(dirname(path)) === 'bin' && existsSync(join(prefix, 'pyvenv.cfg'))) return { venv: prefix };
  return {};
}

function findProgram(command: string, env: Record<string, string | undefined>): string | null {
  const candidates = isAbsolute(command)
    ? [command]
    : command.includes('/')
      ? []
      : (env.PATH ?? '')
          .split(delimiter)
          .filter(Boolean)
          .map((dir) => join(dir, command));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found === undefined) return null;
  // Keep the venv's own bin/python symlink: resolving it would land in the base interpreter.
  return /^python[\d.]*$/.test(basename(found)) ? found : realpathSync(found);
}

/**
 * `vigil check` before the start: errors stop it (unless forced), warnings are shown, a clean check is one
 * line. A check that cannot run at all is a warning: the server may still start.
 */
export async function runPreflight(options: PreflightOptions): Promise<PreflightVerdict> {
  const { io } = options;
  const given = Object.values(options.environment).some((value) => value !== undefined);
  const environment = given ? options.environment : environmentOfCommand(options.command, io.env);
  let report;
  try {
    report = await runCheck({
      ...environment,
      ...checkOptionsFromServerArgs(options.args, io.cwd),
      env: io.env,
      cwd: io.cwd,
    });
  } catch (error) {
    io.stderr.write(`vigil: pre-flight check skipped: ${describeError(error)}\n`);
    return { proceed: true };
  }
  const errors = report.findings.filter((finding) => finding.severity === 'error').length;
  const warnings = report.findings.filter((finding) => finding.severity === 'warning').length;
  if (errors === 0 && warnings === 0) {
    io.stderr.write(`vigil: pre-flight check passed (${report.environment.distributions} distributions)\n`);
    return { proceed: true };
  }
  io.stderr.write(renderCheck(report, 'text', { color: options.color }));
  if (errors === 0) return { proceed: true };
  if (options.force) {
    io.stderr.write(`vigil: starting despite ${errors} pre-flight error(s) (--force)\n`);
    return { proceed: true };
  }
  io.stderr.write(
    `vigil: not starting: the pre-flight check found ${errors} error(s) that would crash the server ` +
      '(--force starts anyway, --no-preflight skips the check)\n',
  );
  return { proceed: false };
}
