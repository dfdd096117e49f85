import { describe, expect, it } from 'vitest';
import { diagnose } from './index.js';

// "No failure" says what the log shows of health: a tick is earned by readiness or an asked-for stop.
describe('the health a log shows when nothing failed', () => {
  it.each([
    [
      'a vLLM start that became ready',
      'INFO 12-01 10:00:00 [api_server.py:1] Starting vLLM API server\nINFO:     Application startup complete.\n',
      'ready',
    ],
    [
      "llama-server's timestamped 'listening on'",
      '0.04.292.573 I srv  llama_server: model loaded\n0.04.292.607 I srv  llama_server: listening on http://127.0.0.1:7860\n',
      'ready',
    ],
    [
      'a start stopped as asked before it was ready',
      'INFO 12-01 10:00:00 [api_server.py:1] Starting vLLM API server\nINFO 12-01 10:00:05 [launcher.py:80] Shutting down FastAPI HTTP server.\nINFO:     Application shutdown complete.\n',
      'stopped',
    ],
    [
      'a log that ends while the weights load',
      'INFO 12-01 10:00:00 [api_server.py:1] Starting vLLM API server\nINFO 12-01 10:00:01 [model_runner.py:2] Loading model weights\n',
      'unseen',
    ],
  ])('%s: %s', (_name, log, health) => {
    const d = diagnose(log);
    expect(d.verdict).toBe('no-failure');
    expect(d.health).toBe(health);
  });
});
