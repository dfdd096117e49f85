import { describe, expect, it } from 'vitest';
import { diagnose } from './index.js';

// fresh-u sglang-5501: SGLang under torchrun waits at its distributed init until a harness ends it.
const START = [
  "[2026-06-04 21:25:18] server_args=ServerArgs(model_path='/tmp/m', tp_size=4)",
  '[2026-06-04 21:25:24] Init torch distributed begin.',
];
const stop = (clock: string): string =>
  `W0604 ${clock}.481000 416 torch/distributed/elastic/agent/server/api.py:739] Received 15 death signal, shutting down workers`;

describe('a start stopped before it became ready', () => {
  it('after two minutes of silence: the stop is the finding, and where it hung is said', () => {
    const d = diagnose([...START, stop('21:27:22')].join('\n'));
    expect(d.rootCause?.message).toContain('Received 15 death signal');
    expect(d.warnings.join(' ')).toContain(
      '1m58s after its last line: [2026-06-04 21:25:24] Init torch distributed begin.',
    );
  });

  it('a few seconds after its last line: a stop as asked, no failure', () => {
    const d = diagnose([...START, stop('21:25:40')].join('\n'));
    expect(d.rootCause).toBeNull();
    expect(d.health).toBe('stopped');
  });

  // test/fixtures/healthy-extra/ollama-001.log: a window of a journal in which Ollama answers requests with
  // minutes between them, then systemd stops it; no start in the window, so no stall.
  it('in a window with no start of its own: a stop as asked, however long the silence before it', () => {
    const d = diagnose(
      [
        'Aug 07 18:42:47 llama30 ollama[1255]: [GIN] 2025/08/07 - 18:42:47 | 200 |         3m12s |       127.0.0.1 | POST     "/api/chat"',
        'Aug 07 18:45:04 llama30 ollama[1255]: [GIN] 2025/08/07 - 18:45:04 | 200 |         2m16s |       127.0.0.1 | POST     "/api/chat"',
        'Aug 07 18:46:17 llama30 systemd[1]: Stopping ollama.service - Ollama Service...',
      ].join('\n'),
    );
    expect(d.rootCause).toBeNull();
  });

  // The silence is said as the reports say durations (progress/format-progress.ts).
  it.each([
    ['21:26:39', '1m15s'],
    ['21:27:22', '1m58s'],
  ])('stopped at %s: said %s after its last line', (clock, said) => {
    expect(diagnose([...START, stop(clock)].join('\n')).warnings.join(' ')).toContain(
      `${said} after its last line`,
    );
  });
});
