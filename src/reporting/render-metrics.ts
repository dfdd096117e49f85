/** What `vigil run --metrics-file` exports about a server's starts, for node_exporter's textfile collector. */
export interface StartMetrics {
  /** The phase the start is in (`loading-weights`), `ready`, or null before the first. */
  phase: string | null;
  /** loading, stalled, ready, failed or exited. */
  verdict: string;
  phaseSeconds: number;
  /** Starts vigil supervised for this command, this one included. */
  starts: number;
  /** Failed starts by the signature id of their root cause (`unknown` without one, or the reason). */
  failures: Readonly<Record<string, number>>;
  /** Unix seconds of the last time the server became ready; null when it never did. */
  lastReadySeconds: number | null;
}

/** The Prometheus text exposition format (version 0.0.4): HELP, TYPE, then the samples. Pure. */
export function renderMetrics(metrics: StartMetrics): string {
  const lines: string[] = [];
  const family = (name: string, type: 'gauge' | 'counter', help: string, samples: string[]): void => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples);
  };
  family('vigil_start_phase', 'gauge', 'The start-up phase the server is in (1 for the current one).', [
    `vigil_start_phase{phase="${label(metrics.phase ?? 'none')}",verdict="${label(metrics.verdict)}"} 1`,
  ]);
  family('vigil_start_phase_seconds', 'gauge', 'Seconds the server has been in its current phase.', [
    `vigil_start_phase_seconds ${number(metrics.phaseSeconds)}`,
  ]);
  family('vigil_starts_total', 'counter', 'Starts of this server vigil run has supervised.', [
    `vigil_starts_total ${metrics.starts}`,
  ]);
  const failures = Object.entries(metrics.failures).sort(([a], [b]) => a.localeCompare(b));
  family(
    'vigil_start_failures_total',
    'counter',
    'Failed starts, by the signature id of their root cause.',
    failures.map(([id, count]) => `vigil_start_failures_total{signature="${label(id)}"} ${count}`),
  );
  if (metrics.lastReadySeconds !== null) {
    family('vigil_last_ready_timestamp_seconds', 'gauge', 'When the server last became ready (Unix time).', [
      `vigil_last_ready_timestamp_seconds ${number(metrics.lastReadySeconds)}`,
    ]);
  }
  return `${lines.join('\n')}\n`;
}

/** A label value with the format's three escapes: backslash, double quote, newline. */
function label(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

function number(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 1000) / 1000) : '0';
}
