import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnose } from './index.js';
import { createDiagnosisSession } from './session.js';

/** A real vLLM start ended by SIGTERM before it was ready (a vllm.log committed to kaimu11111/Prompt-Kernel_Generation). */
const LOG = readFileSync(
  new URL(
    '../signatures/start-terminated-before-ready/fixtures/matches/sigterm-while-loading-v0-fallback.log',
    import.meta.url,
  ),
  'utf8',
);
const LINES = LOG.split('\n');
const SIGNAL_TRACEBACK = LINES.findIndex((line) => line.startsWith('Traceback (most recent call last):'));

describe('a start ended by SIGTERM before it was ready', () => {
  it('is a failure when nothing in the log asked for the stop', () => {
    const diagnosis = diagnose(LOG);
    expect(diagnosis.verdict).toBe('failure');
    expect(diagnosis.signature?.id).toBe('start-terminated-before-ready');
  });

  it('is a stop when the driver says it asked for one (vigil run passing a signal on, or its own timeout)', () => {
    expect(SIGNAL_TRACEBACK).toBeGreaterThan(0);
    const session = createDiagnosisSession();
    for (const line of LINES.slice(0, SIGNAL_TRACEBACK)) session.pushLine(line);
    session.askStop();
    for (const line of LINES.slice(SIGNAL_TRACEBACK)) session.pushLine(line);
    const diagnosis = session.end();
    expect(diagnosis.verdict).toBe('no-failure');
    expect(diagnosis.health).toBe('stopped');
  });
});
