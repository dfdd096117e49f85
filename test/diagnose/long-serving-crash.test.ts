import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The benchmark's generator: days of serving (request logs quoting error words, warnings, failed
// requests), then one worker's crash and the storm it sets off.
import { PLANTED, generateJournal } from '../../bench/generate-journal.mjs';
import { diagnose } from '../../src/diagnosis/index.js';

describe('a server that served for days, then crashed', () => {
  it('names the planted cause, not the chatter before it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vigil-long-'));
    const out = join(dir, 'journal.log');
    await generateJournal({ size: 3_000_000, out });
    const d = diagnose(await readFile(out));
    expect(d.rootCause?.exception).toBe(PLANTED.exception);
    expect(d.rootCause?.message).toContain(PLANTED.messageNeedle);
    expect(d.rootCause?.processes).toEqual([PLANTED.process]);
    expect(d.signature?.category).toBe('oom-gpu');
  });
});
