import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { expectRefused, runBin, tempDir } from './helpers.js';

// Issue 31, item 4 (part): `diagnose /dev/zero` read forever. A device is no log file: refused at once with
// one line and exit 2, by its name or through a link named like a log.

describe('a device given as a log is refused at once', () => {
  it.each(['/dev/zero', '/dev/urandom'])('diagnose %s', async (device) => {
    const result = await runBin(['diagnose', device], { timeoutMs: 15_000 });
    expectRefused(result, new RegExp(`${device}: it is a device, not a log file`));
  });

  it('a link named server.log that points at /dev/zero', async () => {
    const dir = tempDir();
    const log = join(dir, 'server.log');
    symlinkSync('/dev/zero', log);
    const result = await runBin(['diagnose', log], { timeoutMs: 15_000 });
    expectRefused(result, /server\.log: it is a device, not a log file/);
  });

  it('beside a real log, as a missing file is: refused before anything is read', async () => {
    const dir = tempDir();
    const log = join(dir, 'server.log');
    writeFileSync(log, 'INFO starting\nRuntimeError: CUDA error: out of memory\n');
    const result = await runBin(['diagnose', log, '/dev/zero'], { timeoutMs: 15_000 });
    expectRefused(result, /\/dev\/zero: it is a device, not a log file/);
  });
});
