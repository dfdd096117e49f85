import { UsageError } from '../errors.js';
import { formatDuration } from '../progress/index.js';

export interface UnitFileOptions {
  /** The unit's name without `.service`. */
  name: string;
  /** The server program, an absolute path (systemd does not search PATH for it reliably). */
  command: string;
  args: readonly string[];
  description?: string;
  /** The words that run vigil itself (`/usr/bin/node -- /opt/vigil/dist/cli/bin.js`), for ExecStartPre (and ExecStart with `supervise`). */
  vigil: readonly string[];
  /** The file with tokens (HF_TOKEN=...), read by systemd, kept out of the unit and of `ps`. */
  environmentFile: string;
  user?: string;
  workingDirectory?: string;
  /** Expected time from start to ready; sizes TimeoutStartSec (default 20 minutes). */
  loadMs?: number;
  /** How long ExecStartPre waits for GPU memory other processes hold (seconds). */
  gpuWaitSeconds: number;
  /** The server's interpreter, so ExecStartPre checks the environment the server runs, not PATH's python3. */
  python?: string;
  /** Its virtual environment, when it has no bin/python to name. Without either, no Python is checked. */
  venv?: string;
  restartSec: number;
  startLimitBurst: number;
  /** ExecStart runs the server under `vigil run`, so progress and crash reports go to the journal. */
  supervise: boolean;
  healthUrl?: string;
}

/** systemd's unit name grammar (systemd.unit(5)), without the type suffix. */
const UNIT_NAME = /^[A-Za-z0-9:_.\\-]+(?:@[A-Za-z0-9:_.\\-]*)?$/;

/** Accepts `vllm-kimi` or `vllm-kimi.service`; returns the name without the suffix. */
export function validateServiceName(name: string): string {
  const bare = name.endsWith('.service') ? name.slice(0, -'.service'.length) : name;
  if (
    bare.length === 0 ||
    bare.length > 247 ||
    !UNIT_NAME.test(bare) ||
    bare.startsWith('-') ||
    bare.startsWith('.')
  ) {
    throw new UsageError(
      `invalid unit name ${JSON.stringify(name)}: use letters, digits and : _ . \\ - (at most 255 with .service), e.g. --name vllm-qwen`,
    );
  }
  return bare;
}

/**
 * One word of an Exec*= line, quoted per systemd.service(5) "Command lines": a word with whitespace,
 * quotes, backslashes or control characters goes in double quotes with C escapes; `%` is doubled (a
 * specifier otherwise) and `$` too (an environment variable otherwise), inside quotes as well.
 */
// systemd's C escapes cover every control character; the class names them on purpose.
// eslint-disable-next-line no-control-regex
const CONTROL_OR_QUOTE = /[\\"\u0000-\u001f\u007f]/g;

export function quoteExecArgument(word: string): string {
  const escaped = word.replaceAll('%', '%%').replaceAll('$', () => '$$');
  if (escaped !== '' && /^[A-Za-z0-9_@%+=:,./$-]+$/.test(escaped) && escaped !== ';') return escaped;
  const inner = escaped.replace(CONTROL_OR_QUOTE, (char) => {
    switch (char) {
      case '\\':
        return '\\\\';
      case '"':
        return '\\"';
      case '\n':
        return '\\n';
      case '\t':
        return '\\t';
      case '\r':
        return '\\r';
      default:
        return `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
    }
  });
  return `"${inner}"`;
}

/**
 * A value for a `Key=value` line other than Exec*= (systemd.syntax(7)): the rest of the line, whitespace
 * trimmed, specifiers expanded. A newline would start a new directive (`ExecStartPre=+/bin/sh ...` run as
 * root), a trailing backslash would swallow the next line, leading or trailing space is lost: all refused.
 * `%` is doubled, so `%h` stays text.
 */
// eslint-disable-next-line no-control-regex -- every control character is refused; the class names them
const UNIT_CONTROL = /[\u0000-\u001f\u007f]/;

export function unitValue(flag: string, value: string): string {
  const problem = UNIT_CONTROL.test(value)
    ? 'holds a newline or another control character'
    : value.endsWith('\\')
      ? 'ends with a backslash, which systemd reads as "continued on the next line"'
      : value !== value.trim()
        ? 'starts or ends with whitespace, which systemd drops'
        : value === ''
          ? 'is empty'
          : null;
  if (problem !== null)
    throw new UsageError(`${flag} ${JSON.stringify(value)} ${problem}; give it on one line`);
  return value.replaceAll('%', '%%');
}

/** A user name as systemd accepts it in User= (systemd.exec(5), the strict POSIX-ish form) or a UID. */
const USER_NAME = /^(?:[A-Za-z_][A-Za-z0-9_-]{0,30}|[0-9]{1,10})$/;

export function userValue(user: string): string {
  if (!USER_NAME.test(user)) {
    throw new UsageError(
      `--user ${JSON.stringify(user)} is not a user name systemd accepts: a letter or _, then up to 30 letters, digits, _ or -, or a numeric UID`,
    );
  }
  return user;
}

/** An absolute path for WorkingDirectory= or EnvironmentFile=: written as is (systemd does not unquote). */
function pathValue(flag: string, path: string): string {
  if (!path.startsWith('/')) throw new UsageError(`${flag} ${JSON.stringify(path)} must be an absolute path`);
  return unitValue(flag, path);
}

export function formatExecLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(quoteExecArgument).join(' ');
}

/**
 * Server flags whose value is a secret, and the variable of the environment file the unit reads it from:
 * the unit holds `--api-key ${VIGIL_API_KEY}` (systemd puts the value in at the start), never the key.
 */
const SECRET_FLAGS: ReadonlyMap<string, string> = new Map([['--api-key', 'VIGIL_API_KEY']]);

/** The secrets `args` gives on the command line, as the environment file's lines to hold them. */
export function secretsOf(args: readonly string[]): { variable: string; value: string }[] {
  const found: { variable: string; value: string }[] = [];
  args.forEach((word, index) => {
    for (const [flag, variable] of SECRET_FLAGS) {
      if (word === flag && index + 1 < args.length) found.push({ variable, value: args[index + 1] ?? '' });
      else if (word.startsWith(`${flag}=`)) found.push({ variable, value: word.slice(flag.length + 1) });
    }
  });
  return found;
}

/** The server's command line, each secret flag's value replaced by its variable (left unquoted for systemd). */
function formatServerLine(command: string, args: readonly string[]): string {
  const words = [quoteExecArgument(command)];
  for (let index = 0; index < args.length; index++) {
    const word = args[index] ?? '';
    const variable = SECRET_FLAGS.get(word);
    const joined = [...SECRET_FLAGS].find(([flag]) => word.startsWith(`${flag}=`));
    if (variable !== undefined && index + 1 < args.length) {
      words.push(quoteExecArgument(word), `\${${variable}}`);
      index++;
    } else if (joined !== undefined) {
      words.push(`${quoteExecArgument(`${joined[0]}=`)}\${${joined[1]}}`);
    } else {
      words.push(quoteExecArgument(word));
    }
  }
  return words.join(' ');
}

/** systemd time span: `1200s` style, rounded up to whole seconds. */
function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)}s`;
}

/**
 * A service unit with the incident's good practice: wait for the GPU to be free before the start, restart
 * on failure after a pause and within a start limit (a crash loop stops instead of spinning for hours),
 * a start timeout sized to the load, and tokens from an environment file.
 */
export function renderUnitFile(options: UnitFileOptions): string {
  const name = validateServiceName(options.name);
  const environmentFile = pathValue('--env-file', options.environmentFile);
  const description = unitValue('--description', options.description ?? `${name} inference server`);
  if (!options.command.startsWith('/')) {
    throw new UsageError(`${options.command} is not an absolute path: systemd needs one in ExecStart`);
  }
  const vigilProgram = options.vigil[0] ?? '';
  if (!vigilProgram.startsWith('/')) {
    // A leading +, -, @, : or ! is a systemd prefix (+ runs as root whatever User= says): paths only.
    throw new UsageError(`vigil's path ${JSON.stringify(vigilProgram)} is not absolute: systemd needs one`);
  }
  const loadMs = options.loadMs ?? 20 * 60_000;
  // The GPU wait, the load, and half as much again: a slow start is not a failed one.
  const startTimeoutMs = options.gpuWaitSeconds * 1000 + loadMs * 1.5;
  // The start limit must span the bursts of restarts it counts, or it never trips.
  const attemptMs = startTimeoutMs + options.restartSec * 1000;
  const limitIntervalMs = attemptMs * options.startLimitBurst + 60_000;
  const server = formatServerLine(options.command, options.args);
  const vigil = formatExecLine(vigilProgram, options.vigil.slice(1));
  const environment =
    options.python !== undefined
      ? ` --python ${quoteExecArgument(options.python)}`
      : options.venv !== undefined
        ? ` --venv ${quoteExecArgument(options.venv)}`
        : ' --skip-python';
  const vigilRun = [
    vigil,
    'run',
    '--no-preflight',
    ...(options.healthUrl === undefined ? [] : ['--health', quoteExecArgument(options.healthUrl)]),
    '--timeout',
    seconds(loadMs * 1.5),
    '--',
    server,
  ].join(' ');
  const lines = [
    `# ${name}.service, written by vigil unit. Install it with:`,
    `#   sudo cp ${name}.service /etc/systemd/system/ && sudo systemctl daemon-reload`,
    `#   sudo systemctl enable --now ${name} && vigil watch --unit ${name}`,
    `# Tokens (HF_TOKEN=...) go in ${environmentFile}, mode 0600, never in this file.`,
    '',
    '[Unit]',
    `Description=${description}`,
    'After=network-online.target',
    'Wants=network-online.target',
    `# At most ${options.startLimitBurst} starts in ${formatDuration(limitIntervalMs)}: a crash loop stops and stays failed.`,
    `StartLimitIntervalSec=${seconds(limitIntervalMs)}`,
    `StartLimitBurst=${options.startLimitBurst}`,
    '',
    '[Service]',
    'Type=simple',
    ...(options.user === undefined ? [] : [`User=${userValue(options.user)}`]),
    ...(options.workingDirectory === undefined
      ? []
      : [`WorkingDirectory=${pathValue('--working-directory', options.workingDirectory)}`]),
    `EnvironmentFile=-${environmentFile}`,
    'Environment=PYTHONUNBUFFERED=1',
    `# Wait up to ${options.gpuWaitSeconds}s for GPU memory that a previous run's workers still hold; check reads the server's flags.`,
    `ExecStartPre=${vigil} check --gpu --wait-gpu-free ${options.gpuWaitSeconds}${environment} -- ${server}`,
    `ExecStart=${options.supervise ? vigilRun : server}`,
    'Restart=on-failure',
    ...(options.supervise
      ? [
          '# vigil run exits 78 when the pre-flight check refuses the start: a restart would fail the same way.',
          'RestartPreventExitStatus=78',
        ]
      : []),
    `RestartSec=${options.restartSec}s`,
    `# The GPU wait plus the load (${formatDuration(loadMs)} expected) with room to spare. With Type=simple`,
    '# systemd counts only the wait against it; `vigil unit --supervise` bounds the load with vigil run --timeout.',
    `TimeoutStartSec=${seconds(startTimeoutMs)}`,
    'TimeoutStopSec=60s',
    '# Stop the workers with the main process, so none keeps GPU memory into the next start.',
    'KillMode=control-group',
    'LimitNOFILE=65536',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ];
  return lines.join('\n');
}
