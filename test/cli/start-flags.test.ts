import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The built CLI (`npm test` builds it first), with the V8 flags it sets at its start (src/cli/start-flags.ts).
const BIN = resolve(import.meta.dirname, '../../dist/cli/bin.js');
const root = mkdtempSync(join(tmpdir(), 'vigil-start-flags-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// The line that crashed V8 when regex tier-up was switched mid-run (BENCHMARKS.md): a regex tested on a
// subject of 1,000 characters or more is marked for tier-up.
const log = join(root, 'long-line.log');
writeFileSync(
  log,
  [
    'Feb 20 10:00:02 h vllm[9]: Traceback (most recent call last):',
    'Feb 20 10:00:02 h vllm[9]:   File "/opt/v/lib/python3.12/site-packages/vllm/x.py", line 1, in <module>',
    'Feb 20 10:00:02 h vllm[9]: RuntimeError: <script>window.__pwned=1</script>',
    `Feb 20 10:00:02 h vllm[9]: ${'x'.repeat(65_536)}<script>window.__pwned=4</script>`,
    'Feb 20 10:00:03 h systemd[1]: vllm.service: Main process exited, code=exited, status=1/FAILURE',
  ].join('\n'),
);

describe('the flags set at the start crash nothing', () => {
  it.each(['text', 'json', 'html'])(
    'diagnose a 65,536-character line (%s), cache empty then filled',
    (format) => {
      const env = { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: join(root, `cache-${format}`) };
      for (let run = 0; run < 2; run += 1) {
        const result = spawnSync(process.execPath, [BIN, 'diagnose', log, '--format', format], { env });
        expect({ status: result.status, signal: result.signal }).toEqual({ status: 1, signal: null });
      }
    },
  );
});
