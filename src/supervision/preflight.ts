import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { terminalWidth, type CliIo } from '../cli/io.js';
import {
  locateInterpreter,
  runCheck,
  type CheckOptions,
  type EnvironmentOptions,
} from '../environment/index.js';
import { parseServerFlags } from '../engines/server-flags.js';
import type { Finding } from '../checks/index.js';
import { describeError } from '../errors.js';
import { aimFindings } from '../fix/aim-findings.js';
import { readEnvironmentFacts } from '../environment/read-crashed-environment.js';
import { renderCheck } from '../reporting/check/index.js';

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
  /** What the check found, for a report of the start; null when it could not run. */
  findings: Finding[] | null;
}

/** What the server's own flags tell the check: read by the one engine-flag parser (engines/server-flags). */
export function checkOptionsFromServerArgs(args: readonly string[], cwd: string): Partial<CheckOptions> {
  const flags = parseServerFlags(args);
  const modelDir = flags.model === null ? undefined : resolve(cwd, flags.model);
  return {
    port: flags.port ?? undefined,
    tp: flags.tensorParallel ?? undefined,
    maxModelLen: flags.maxModelLen ?? undefined,
    model: modelDir !== undefined && existsSync(join(modelDir, 'config.json')) ? modelDir : undefined,
    serverCommand: args,
  };
}

/** The server's Python environment, from its command (environment/locate-interpreter.ts); {} when it does not say. */
export function environmentOfCommand(
  command: string,
  env: Record<string, string | undefined>,
  cwd?: string,
): EnvironmentOptions {
  const found = locateInterpreter(command, env, cwd);
  if (found === null) return {};
  return found.venv === undefined ? { python: found.python } : { venv: found.venv };
}

/**
 * `vigil check` before the start: errors stop it (unless forced), warnings are shown, a clean check is one
 * line. A check that cannot run at all is a warning: the server may still start.
 */
export async function runPreflight(options: PreflightOptions): Promise<PreflightVerdict> {
  const { io } = options;
  // Only the three environment flags count: `env` and `cwd` are always there.
  const { python, venv, sitePackages } = options.environment;
  const given = python !== undefined || venv !== undefined || (sitePackages ?? []).length > 0;
  const environment = given
    ? options.environment
    : { ...options.environment, ...environmentOfCommand(options.command, io.env, io.cwd) };
  let report;
  try {
    report = await runCheck({
      ...environment,
      ...checkOptionsFromServerArgs([options.command, ...options.args], io.cwd),
      env: io.env,
      cwd: io.cwd,
    });
  } catch (error) {
    io.stderr.write(`vigil: pre-flight check skipped: ${describeError(error)}\n`);
    return { proceed: true, findings: null };
  }
  // The same install as `vigil check` and `diagnose` print for this environment: its interpreter, uv or pip.
  report.findings = aimFindings(report.findings, report.environment, { kind: 'local' }, readEnvironmentFacts);
  const errors = report.findings.filter((finding) => finding.severity === 'error').length;
  const warnings = report.findings.filter((finding) => finding.severity === 'warning').length;
  if (errors === 0 && warnings === 0) {
    const checked = report.environment.python ?? report.environment.sitePackages.join(', ');
    io.stderr.write(
      `vigil: pre-flight check passed for ${checked} (${report.environment.distributions} distributions)\n`,
    );
    return { proceed: true, findings: report.findings };
  }
  io.stderr.write(renderCheck(report, 'text', { color: options.color, width: terminalWidth(io) }));
  if (errors === 0) return { proceed: true, findings: report.findings };
  if (options.force) {
    io.stderr.write(`vigil: starting despite ${errors} pre-flight error(s) (--force)\n`);
    return { proceed: true, findings: report.findings };
  }
  io.stderr.write(
    `vigil: not starting: the pre-flight check found ${errors} error(s) that would crash the server ` +
      '(--force starts anyway, --no-preflight skips the check)\n',
  );
  return { proceed: false, findings: report.findings };
}
