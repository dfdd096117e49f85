import { describe, expect, it } from 'vitest';
import { countProbes, isProbeRequest } from './probes.js';

describe('isProbeRequest', () => {
  it.each([
    ['(APIServer pid=7) INFO:     127.0.0.1:60212 - "GET /metrics HTTP/1.1" 200 OK', true],
    ['INFO:     10.0.0.1:41000 - "GET /health HTTP/1.1" 200 OK', true],
    ['[2026-06-03 11:09:23] INFO:     127.0.0.1:37446 - "GET /health_generate HTTP/1.1" 200 OK', true],
    ['INFO:     10.0.0.1:41000 - "GET /v1/models HTTP/1.1" 200 OK', true],
    ['INFO:     10.0.0.1:41000 - "GET /metrics?name=x HTTP/1.1" 200 OK', true],
    ['INFO:     10.0.0.1:41000 - "POST /v1/chat/completions HTTP/1.1" 200 OK', false],
    ['INFO:     10.0.0.1:41000 - "GET /v1/models/llama HTTP/1.1" 200 OK', false],
    ['GET /metrics is what Prometheus scrapes', false],
  ])('%s: %s', (line, probe) => {
    expect(isProbeRequest(line)).toBe(probe);
  });
});

describe('countProbes', () => {
  const lines = [
    'INFO:     127.0.0.1:1 - "GET /metrics HTTP/1.1" 200 OK',
    'INFO:     127.0.0.1:2 - "POST /v1/completions HTTP/1.1" 200 OK',
    'INFO:     127.0.0.1:3 - "GET /health HTTP/1.1" 200 OK',
    'INFO 12-01 10:00:00 [loggers.py:87] Engine 000: Avg prompt throughput: 0.0 tokens/s',
  ];
  const bytes = Buffer.from(`${lines.join('\n')}\n`);
  it.each([
    ['all the lines', 0, bytes.length, 2],
    ['the lines after the first', bytes.indexOf('\n') + 1, bytes.length, 1],
    ['the first line alone', 0, bytes.indexOf('\n') + 1, 1],
  ])('%s', (_name, from, to, count) => {
    expect(countProbes(bytes, from, to)).toBe(count);
  });
});
