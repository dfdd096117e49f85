/** What one of systemd's own journal messages about a unit says about its start. */
export type SystemdEvent =
  | { kind: 'starting' }
  | { kind: 'stopping' }
  | { kind: 'main-exited'; success: boolean; status: string }
  | { kind: 'failed'; result: string }
  | { kind: 'restart-scheduled'; counter: number }
  | { kind: 'start-limit-hit' }
  | { kind: 'start-timeout' }
  | { kind: 'oom-killed' }
  | { kind: 'deactivated' };

// systemd 252 wordings (src/core/service.c, unit.c, job.c); older ones prefix "NAME: " the same way, and
// before v246 the start line reads "Starting Description...".
const PATTERNS: [RegExp, (match: RegExpExecArray) => SystemdEvent][] = [
  [
    /^(?:\S+: )?Main process exited, code=(\w+), status=(\S+?)\.?$/,
    (m) => mainExited(m[1] ?? '', m[2] ?? ''),
  ],
  [/^(?:\S+: )?Failed with result '([\w-]+)'/, (m) => ({ kind: 'failed', result: m[1] ?? 'unknown' })],
  [
    /^(?:\S+: )?Scheduled restart job, restart counter is at (\d+)/,
    (m) => ({ kind: 'restart-scheduled', counter: Number(m[1]) }),
  ],
  [/^(?:\S+: )?Start request repeated too quickly/, () => ({ kind: 'start-limit-hit' })],
  [/^(?:\S+: )?(?:start|start-pre) operation timed out/i, () => ({ kind: 'start-timeout' })],
  [/has been killed by the OOM killer|Failed with result 'oom-kill'/, () => ({ kind: 'oom-killed' })],
  [/^(?:\S+: )?Deactivated successfully/, () => ({ kind: 'deactivated' })],
  [/^Starting .*\.\.\.$/, () => ({ kind: 'starting' })],
  [/^Stopping .*\.\.\.$/, () => ({ kind: 'stopping' })],
];

function mainExited(code: string, status: string): SystemdEvent {
  return {
    kind: 'main-exited',
    success: code === 'exited' && /^0(?:\/SUCCESS)?$/.test(status),
    status: `${code} ${status}`,
  };
}

export function parseSystemdMessage(message: string): SystemdEvent | null {
  for (const [pattern, build] of PATTERNS) {
    const match = pattern.exec(message);
    if (match !== null) return build(match);
  }
  return null;
}
