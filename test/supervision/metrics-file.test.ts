import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { renderMetrics } from '../../src/reporting/render-metrics.js';

describe('renderMetrics, read back by a Prometheus text-format parser', () => {
  it('writes phase, seconds in phase, starts, failures by signature and the last ready time', () => {
    const text = renderMetrics({
      phase: 'loading-weights',
      verdict: 'stalled',
      phaseSeconds: 61.25,
      starts: 3,
      failures: { 'flashinfer-version-mismatch': 2, 'weird "id"\\x': 1 },
      lastReadySeconds: 1764583200,
    });
    const families = Object.fromEntries(
      parsePrometheusTextFormat(text).map((family) => [family.name, family]),
    );
    expect(families.vigil_start_phase).toMatchObject({
      type: 'GAUGE',
      metrics: [{ value: '1', labels: { phase: 'loading-weights', verdict: 'stalled' } }],
    });
    expect(families.vigil_start_phase_seconds?.metrics).toEqual([{ value: '61.25' }]);
    expect(families.vigil_starts_total).toMatchObject({ type: 'COUNTER', metrics: [{ value: '3' }] });
    expect(families.vigil_start_failures_total?.metrics).toEqual([
      { value: '2', labels: { signature: 'flashinfer-version-mismatch' } },
      { value: '1', labels: { signature: 'weird "id"\\x' } },
    ]);
    expect(families.vigil_last_ready_timestamp_seconds?.metrics).toEqual([{ value: '1764583200' }]);
  });

  it('leaves out the last ready time of a server never ready', () => {
    const text = renderMetrics({
      phase: null,
      verdict: 'loading',
      phaseSeconds: 0,
      starts: 1,
      failures: {},
      lastReadySeconds: null,
    });
    const names = parsePrometheusTextFormat(text).map((family) => family.name);
    expect(names).not.toContain('vigil_last_ready_timestamp_seconds');
    expect(names).toContain('vigil_start_phase');
  });
});
