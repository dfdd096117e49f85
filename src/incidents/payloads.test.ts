import { describe, expect, it } from 'vitest';
import { diagnose } from '../diagnosis/index.js';
import { applyWatcherEvent, emptyIncidentState } from './incidents.js';
import { alertmanagerBody, slackBody, webhookBody, type IncidentNotice } from './payloads.js';

// A failure whose message carries a Hugging Face token: no receiver is sent the token.
const SECRET = 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567';
const log = [
  'INFO 05-12 09:14:05 [api_server.py:1043] vLLM API server version 0.8.5',
  'Traceback (most recent call last):',
  '  File "/usr/lib/python3/dist-packages/vllm/main.py", line 3, in <module>',
  `    raise ValueError("token ${SECRET} was refused")`,
  `ValueError: token ${SECRET} was refused`,
].join('\n');
const diagnosis = diagnose(log);
const { state } = applyWatcherEvent(emptyIncidentState(), {
  type: 'failure',
  target: 'vllm.service',
  host: 'gpu-1',
  startKey: 'a',
  at: new Date('2026-03-03T10:00:00Z'),
  diagnosis,
  serving: false,
});
const incident = state.incidents[0];

describe('what receivers are sent', () => {
  it('holds the cause as the diagnosis names it', () => {
    expect(incident?.cause).toContain('was refused');
    expect(incident?.cause).toContain(SECRET);
  });

  it.each([
    ['the webhook', (notice: IncidentNotice) => webhookBody(notice)],
    ['Alertmanager', (notice: IncidentNotice) => alertmanagerBody(notice, new Date())],
    ['Slack', (notice: IncidentNotice) => slackBody(notice)],
  ])('%s gets no secret unless --no-redact', (_name, body) => {
    if (incident === undefined) throw new Error('no incident');
    const notice: IncidentNotice = {
      kind: 'firing',
      incident,
      diagnosis,
      pagePath: '/p/page.html',
      redact: true,
    };
    expect(body(notice)).not.toContain(SECRET.slice(3));
    expect(body({ ...notice, redact: false })).toContain(SECRET);
  });

  it('Alertmanager: one alert with the labels and annotations, endsAt only when resolved', () => {
    if (incident === undefined) throw new Error('no incident');
    const notice: IncidentNotice = {
      kind: 'firing',
      incident,
      diagnosis,
      pagePath: '/p/page.html',
      redact: true,
    };
    const [alert] = JSON.parse(alertmanagerBody(notice, new Date())) as Record<string, unknown>[];
    expect(alert).toMatchObject({
      labels: {
        target: 'vllm.service',
        host: 'gpu-1',
        engine: 'vllm',
        category: incident.category,
        signature: incident.signature,
      },
      annotations: { page: '/p/page.html' },
      startsAt: '2026-03-03T10:00:00.000Z',
    });
    expect(alert).not.toHaveProperty('endsAt');
    const resolved = { ...incident, status: 'resolved' as const, resolvedAt: '2026-03-03T10:05:00.000Z' };
    const [ended] = JSON.parse(
      alertmanagerBody({ ...notice, kind: 'resolved', incident: resolved }, new Date()),
    ) as Record<string, unknown>[];
    expect(ended?.endsAt).toBe('2026-03-03T10:05:00.000Z');
  });
});
