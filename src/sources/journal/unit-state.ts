import { localRunner, type CommandRunner } from '../../system/run-command.js';

// systemd's word on the unit whose journal is read: where its current start begins (the journal window
// watch reads from) and, for --stop-on-crash, a stop that keeps the crash's lines as they are.

/** What `systemctl show` says about the unit: the properties issue 5 names, and when it was started. */
export interface UnitState {
  activeState: string;
  subState: string;
  result: string;
  nRestarts: number;
  execMainStatus: number | null;
  invocationId: string;
  /** When the unit left "inactive" for the current start, as `@SECONDS` for journalctl --since. */
  startedSince: string | null;
}

const PROPERTIES = 'ActiveState,SubState,Result,NRestarts,ExecMainStatus,InvocationID,InactiveExitTimestamp';

/** Parses `KEY=value` lines (`systemctl show --timestamp=unix`). */
export function parseUnitState(text: string): UnitState {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const eq = line.indexOf('=');
    if (eq > 0) values.set(line.slice(0, eq), line.slice(eq + 1).trim());
  }
  const number = (key: string): number | null => {
    const value = values.get(key);
    return value === undefined || value === '' || !/^-?\d+$/.test(value) ? null : Number(value);
  };
  const since = values.get('InactiveExitTimestamp') ?? '';
  return {
    activeState: values.get('ActiveState') ?? 'unknown',
    subState: values.get('SubState') ?? 'unknown',
    result: values.get('Result') ?? 'unknown',
    nRestarts: number('NRestarts') ?? 0,
    execMainStatus: number('ExecMainStatus'),
    invocationId: values.get('InvocationID') ?? '',
    startedSince: /^@\d+$/.test(since) ? since : null,
  };
}

/**
 * The unit's state where systemd runs; null where it does not (a container, CI: "System has not been
 * booted with systemd as init system") or systemctl is missing, so the watch goes on from the journal.
 */
export async function readUnitState(
  unit: string,
  env: Record<string, string | undefined>,
  runner: CommandRunner = localRunner,
): Promise<UnitState | null> {
  try {
    const result = await runner.run(
      'systemctl',
      ['show', unit, `--property=${PROPERTIES}`, '--timestamp=unix'],
      {
        timeoutMs: 10_000,
        env: env,
      },
    );
    if (result.code !== 0) return null;
    const state = parseUnitState(result.stdout);
    return state.activeState === 'unknown' ? null : state;
  } catch {
    return null;
  }
}

/** `systemctl stop NAME`, to freeze the logs of a crash before the next restart adds to them. */
export async function stopUnit(
  unit: string,
  env: Record<string, string | undefined>,
  runner: CommandRunner = localRunner,
): Promise<string | null> {
  try {
    const result = await runner.run('systemctl', ['stop', unit], {
      timeoutMs: 120_000,
      env: env,
    });
    return result.code === 0
      ? null
      : result.stderr.trim().split('\n')[0] || `systemctl stop exited ${result.code}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
