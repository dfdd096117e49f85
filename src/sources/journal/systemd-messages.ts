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

// systemd 252 wordings (src/core/service.c, unit.c, job.c); older ones prefix "NAME: " the same way,
// before v246 the start line reads "Starting Description...", and before v233 `main process exited`.
const PATTERNS: [RegExp, (match: RegExpExecArray) => SystemdEvent][] = [
  [
    /^(?:\S+: )?[Mm]ain process exited, code=(\w+), status=(\S+?)\.?$/,
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

/**
 * Whether one of systemd's messages ends the invocation it is about, and how: `failed` (an exit other
 * than 0/SUCCESS, a failed result, an OOM kill, a failed start job), `ended` (any other end), or null.
 */
export function judgeEnd(message: string): 'failed' | 'ended' | null {
  const event = parseSystemdMessage(message);
  switch (event?.kind) {
    case 'main-exited':
      return event.success ? 'ended' : 'failed';
    case 'failed':
    case 'oom-killed':
      return 'failed';
    case 'deactivated':
    case 'start-limit-hit':
      return 'ended';
    default:
      // systemd's job lines, which PATTERNS leave to the unit's words above.
      if (/^Failed to start /.test(message)) return 'failed';
      return /^Stopped /.test(message) ? 'ended' : null;
  }
}
