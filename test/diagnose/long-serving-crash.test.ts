import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The benchmark's generator: days of serving (request logs quoting error words, warnings, failed
// requests), then one worker's crash and the storm it sets off.
import { PLANTED, generateJournal } from '../../bench/generate-journal.mjs';
import { createDiagnosisSession, diagnose } from '../../src/diagnosis/index.js';

describe('a server that served for days, then crashed', () => {
  it('names the planted cause, not the chatter before it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vigil-long-'));
    const out = join(dir, 'journal.log');
    await generateJournal({ size: 3_000_000, out });
    const log = await readFile(out);
    // Read closely throughout (the log is under the 4 MiB read closely at the end), and read as a long
    // log is: only signs of death once the server serves.
    for (const closeReadBytes of [undefined, 0]) {
      const d = diagnose(log, closeReadBytes === undefined ? {} : { closeReadBytes });
      expect(d.rootCause?.exception).toBe(PLANTED.exception);
      expect(d.rootCause?.message).toContain(PLANTED.messageNeedle);
      expect(d.rootCause?.processes).toEqual([PLANTED.process]);
      expect(d.signature?.category).toBe('oom-gpu');
      expect(d.input.lines).toBe(log.toString('latin1').split('\n').length - 1);
    }
  });

  it('sees what was pushed when peeked, though the last stretch is read at the end', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vigil-peek-'));
    const out = join(dir, 'journal.log');
    await generateJournal({ size: 3_000_000, out });
    const log = await readFile(out);
    const session = createDiagnosisSession();
    for (let at = 0; at < log.length; at += 1 << 20) session.push(log.subarray(at, at + (1 << 20)));
    const peeked = session.peek();
    // Every whole line is counted and the failure seen; the tracebacks still open are given at the end.
    expect(peeked.input.lines).toBe(log.toString('latin1').split('\n').length - 1);
    expect(peeked.verdict).toBe('failure');
    expect(session.end().rootCause?.exception).toBe(PLANTED.exception);
  });
});

describe('bytes and lines pushed into one session', () => {
  it('are read in the order they came', () => {
    const session = createDiagnosisSession();
    session.push('INFO 02-20 23:30:00 [api_server.py:1] vLLM API server version 0.11.0\n');
    session.push('Traceback (most recent call last):\n  File "/x/worker.py", line 3, in run\n');
    session.pushLine('RuntimeError: CUDA error: an illegal memory access was encountered');
    const d = session.end();
    expect(d.rootCause?.exception).toBe('RuntimeError');
    expect(d.rootCause?.raiseSite?.file).toBe('/x/worker.py');
    expect(d.input.lines).toBe(4);
  });
});
