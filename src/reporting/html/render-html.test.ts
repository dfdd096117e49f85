import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../diagnosis/index.js';
import { createTimelineBuilder } from '../../timeline/build-timeline.js';
import { COPY_SCRIPT, hashSource } from './copy-script.js';
import type { IncidentPage } from './incident-page.js';
import { PAGE_STYLE } from './page-style.js';
import { renderHtml } from './render-html.js';

const INCIDENT = readFileSync('examples/vllm-kimi-k25-flashinfer-mismatch.journal.log', 'utf8');

function pageOf(text: string, more: Partial<IncidentPage> = {}): string {
  const builder = createTimelineBuilder();
  for (const line of text.split('\n')) builder.push(line);
  return renderHtml({
    reports: [{ label: null, diagnosis: diagnose(text), timeline: builder.finish() }],
    groups: [],
    findings: null,
    vigilVersion: '9.9.9',
    redacted: true,
    generatedAt: '2026-12-01 10:00 UTC',
    ...more,
  });
}

const HOSTILE = [
  '<script>window.__pwned=1</script>',
  '</textarea><script>window.__pwned=2</script>',
  '"><img src=x onerror="window.__pwned=3">',
  "'><svg onload=window.__pwned=4>",
  '\u001b]52;c;Y3VybCBldmlsfHNo\u0007',
  'safe\u202etxt.exe',
];

function hostileLog(): string {
  return [
    'vLLM API server version 0.9.0',
    ...HOSTILE.map((h, i) => `(Worker_TP${i} pid=${i}) ERROR 01-01 00:00:0${i} [x.py:1] RuntimeError: ${h}`),
    'Traceback (most recent call last):',
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/x.py", line 1, in <module>',
    `RuntimeError: ${HOSTILE.join(' ')}`,
    `${'A'.repeat(65_536)} <script>window.__pwned=5</script>`,
  ].join('\n');
}

describe('renderHtml', () => {
  it('puts the verdict, the fix, the workers, the sites and both starts on the bundled incident’s page', () => {
    const html = pageOf(INCIDENT);
    expect(html).toContain('flashinfer-cubin version (0.6.3) does not match flashinfer version (0.6.4)');
    expect(html).toContain('pip install flashinfer-cubin==0.6.4');
    expect(html).toContain('8/8 workers (Worker_TP0..7)');
    expect(html).toContain('flashinfer/jit/env.py:79 in _get_cubin_dir');
    expect(html).toContain('deepseek_v2.py:998 in __init__');
    expect(html.match(/<div class="attempt">/g)).toHaveLength(2);
    expect(html).toContain('Vigil 9.9.9');
  });

  it('admits exactly its own style and script by hash and nothing else', () => {
    const html = pageOf(INCIDENT);
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`style-src ${hashSource(PAGE_STYLE)}`);
    expect(csp).toContain(`script-src ${hashSource(COPY_SCRIPT)}`);
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toContain(`<script>${COPY_SCRIPT}</script>`);
    expect(html).not.toMatch(/\ssrc=|url\(|@import|<link/);
  });

  it('escapes every log-derived string: no markup, control or hidden character from the log survives', () => {
    const html = pageOf(hostileLog());
    const scripts = html.match(/<script>/g) ?? [];
    expect(scripts).toHaveLength(1);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<svg onload');
    expect(html).not.toContain('</textarea>');
    // eslint-disable-next-line no-control-regex -- no terminal control may reach the page
    expect(html).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(html).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(html).toContain('&lt;U+202E&gt;');
  });

  it('links a reference only when it is a web address', () => {
    const d = diagnose(INCIDENT);
    const signature = d.signature
      ? { ...d.signature, references: ['javascript:alert(1)', 'https://example.org/x'] }
      : null;
    const html = renderHtml({
      reports: [{ label: null, diagnosis: { ...d, signature }, timeline: null }],
      groups: [],
      findings: null,
      vigilVersion: '1',
      redacted: true,
      generatedAt: null,
    });
    expect(html).toContain('<a href="https://example.org/x" rel="noreferrer noopener">');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('javascript:alert(1)');
  });

  it('shows a healthy log as no failure, with no fix', () => {
    const html = pageOf('vLLM API server version 0.9.0\nApplication startup complete.\n');
    expect(html).toContain('No failure found in');
    expect(html).not.toContain('<button');
  });

  it('summarises several logs and groups them by cause', () => {
    const failed = diagnose(INCIDENT);
    const healthy = diagnose('Application startup complete.\n');
    const html = renderHtml({
      reports: [
        { label: 'pod/vllm-0', diagnosis: failed, timeline: null },
        { label: 'pod/vllm-1', diagnosis: failed, timeline: null },
        { label: 'pod/<b>vllm-2</b>', diagnosis: healthy, timeline: null },
      ],
      groups: [{ cause: 'RuntimeError: flashinfer-cubin version', members: ['pod/vllm-0', 'pod/vllm-1'] }],
      findings: null,
      vigilVersion: '1',
      redacted: false,
      generatedAt: null,
    });
    expect(html).toContain('2 of 3 failed');
    expect(html).toContain('2 of 3: pod/vllm-0, pod/vllm-1');
    expect(html).toContain('pod/&lt;b&gt;vllm-2&lt;/b&gt;');
    expect(html).toContain('Not redacted');
    expect(html.match(/id="report-\d"/g)).toHaveLength(3);
  });

  it('shows the pre-flight findings with their fixes', () => {
    const html = pageOf(INCIDENT, {
      findings: [
        {
          id: 'flashinfer-version-mismatch',
          severity: 'error',
          title: 'flashinfer-python 0.6.4 but flashinfer-cubin 0.6.3',
          detail: 'The two must match.',
          fix: 'uv pip install flashinfer-cubin==0.6.4',
          packages: ['flashinfer-cubin'],
        },
      ],
    });
    expect(html).toContain('Environment (pre-flight check)');
    expect(html).toContain('uv pip install flashinfer-cubin==0.6.4');
    expect(html).toContain('data-copy="check-fix-0"');
  });
});
