import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { StartRecord } from '../progress/index.js';
import { deriveProbeSettings, renderKubeProbes, startupWindowMs } from './probe-settings.js';

const start = (readyMs: number): StartRecord => ({
  at: '2026-11-30T10:00:00.000Z',
  engine: 'vllm',
  readyMs,
  phases: [],
});

describe('deriveProbeSettings', () => {
  it.each([
    ['one 10-minute start', [start(600_000)], 600_000],
    ['the slowest of three', [start(300_000), start(1_020_000), start(640_000)], 1_020_000],
  ])('puts the startup window above %s', (_name, history, slowest) => {
    const settings = deriveProbeSettings(history);
    expect(settings.slowestMs).toBe(slowest);
    expect(startupWindowMs(settings)).toBeGreaterThan(slowest);
    expect(startupWindowMs(settings)).toBeLessThanOrEqual(slowest * 1.5 + 10_000);
  });

  it('sizes for a 20-minute load without history', () => {
    expect(startupWindowMs(deriveProbeSettings([]))).toBe(20 * 60_000);
  });

  it('prints probes a container spec takes as they are', () => {
    const text = renderKubeProbes(deriveProbeSettings([start(600_000)]), {
      readyPath: '/v1/models',
      livePath: '/health',
      port: 8000,
    });
    expect(text).toMatch(
      /^# Probes written by vigil probe-config, from 1 measured start\(s\), the slowest 10m00s\./,
    );
    expect(parse(text)).toEqual({
      startupProbe: {
        httpGet: { path: '/health', port: 8000 },
        periodSeconds: 10,
        failureThreshold: 90,
        timeoutSeconds: 5,
      },
      readinessProbe: {
        httpGet: { path: '/v1/models', port: 8000 },
        periodSeconds: 5,
        failureThreshold: 3,
        timeoutSeconds: 5,
      },
      livenessProbe: {
        httpGet: { path: '/health', port: 8000 },
        periodSeconds: 10,
        failureThreshold: 3,
        timeoutSeconds: 10,
      },
    });
  });
});
