import { formatDuration, type StartRecord } from '../progress/index.js';

export interface ProbeSettings {
  /** How many earlier starts the settings come from, and the slowest of them (null: none, defaults). */
  starts: number;
  slowestMs: number | null;
  startup: { periodSeconds: number; failureThreshold: number; timeoutSeconds: number };
  readiness: { periodSeconds: number; failureThreshold: number; timeoutSeconds: number };
  liveness: { periodSeconds: number; failureThreshold: number; timeoutSeconds: number };
}

/** Without history: a large model's load takes about ten minutes; allow twice that. */
const DEFAULT_LOAD_MS = 20 * 60_000;
const STARTUP_PERIOD_S = 10;
/** The startup probe's window is the slowest start seen times this, so a slow day is no kill. */
const MARGIN = 1.5;

/**
 * Probe settings from the measured start-ups: the startup probe's window (failureThreshold ×
 * periodSeconds) lies above the slowest start seen, with half as much again to spare; readiness and
 * liveness take over once it passed. Pure.
 */
export function deriveProbeSettings(history: readonly StartRecord[]): ProbeSettings {
  const slowestMs = history.length === 0 ? null : Math.max(...history.map((record) => record.readyMs));
  const windowMs = (slowestMs ?? DEFAULT_LOAD_MS / MARGIN) * MARGIN;
  return {
    starts: history.length,
    slowestMs,
    startup: {
      periodSeconds: STARTUP_PERIOD_S,
      failureThreshold: Math.max(3, Math.ceil(windowMs / 1000 / STARTUP_PERIOD_S)),
      timeoutSeconds: 5,
    },
    readiness: { periodSeconds: 5, failureThreshold: 3, timeoutSeconds: 5 },
    liveness: { periodSeconds: 10, failureThreshold: 3, timeoutSeconds: 10 },
  };
}

/** The window the startup probe allows, in milliseconds. */
export function startupWindowMs(settings: ProbeSettings): number {
  return settings.startup.failureThreshold * settings.startup.periodSeconds * 1000;
}

/** Where the settings come from, for a comment above them. */
export function describeProbeBasis(settings: ProbeSettings): string {
  return settings.slowestMs === null
    ? `no start-up history yet: sized for a ${formatDuration(DEFAULT_LOAD_MS)} load (run the server under \`vigil run\` once to measure it)`
    : `from ${settings.starts} measured start(s), the slowest ${formatDuration(settings.slowestMs)}`;
}

/** The probes of a Kubernetes container spec, as YAML to paste under the container. */
export function renderKubeProbes(
  settings: ProbeSettings,
  target: { readyPath: string; livePath: string; port: number },
): string {
  const probe = (
    name: string,
    path: string,
    values: { periodSeconds: number; failureThreshold: number; timeoutSeconds: number },
  ): string[] => [
    `${name}:`,
    '  httpGet:',
    `    path: ${path}`,
    `    port: ${target.port}`,
    `  periodSeconds: ${values.periodSeconds}`,
    `  failureThreshold: ${values.failureThreshold}`,
    `  timeoutSeconds: ${values.timeoutSeconds}`,
  ];
  return [
    `# Probes written by vigil probe-config, ${describeProbeBasis(settings)}.`,
    `# The startup probe allows ${formatDuration(startupWindowMs(settings))} (failureThreshold x periodSeconds) before the kubelet restarts the container.`,
    ...probe('startupProbe', target.livePath, settings.startup),
    ...probe('readinessProbe', target.readyPath, settings.readiness),
    ...probe('livenessProbe', target.livePath, settings.liveness),
    '',
  ].join('\n');
}
