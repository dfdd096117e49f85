import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { expectNoTrace, writeFiles } from './cli-harness.js';
import { AFTERMATH } from './fixtures.js';

/**
 * An internal bug (here: stdout that throws a TypeError, which nothing in vigil expects) must end in one line
 * that says how to get the trace, and show the trace only with VIGIL_DEBUG=1.
 */
async function runWithBrokenStdout(debug: boolean): Promise<{ code: number; stderr: string }> {
  const dir = await writeFiles({ 'crash.log': AFTERMATH.join('\n') });
  let stderr = '';
  const code = await runCli(['diagnose', join(dir, 'crash.log')], {
    stdout: {
      write: () => {
        throw new TypeError("Cannot read properties of undefined (reading 'write')");
      },
    },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([]),
    env: { NO_COLOR: '1', ...(debug ? { VIGIL_DEBUG: '1' } : {}) },
    cwd: process.cwd(),
  });
  return { code, stderr };
}

describe('an internal error', () => {
  it('prints one line that mentions VIGIL_DEBUG=1, exit 2', async () => {
    const { code, stderr } = await runWithBrokenStdout(false);
    expect(code).toBe(2);
    expectNoTrace(stderr);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^vigil: internal error: /);
    expect(stderr).toContain('VIGIL_DEBUG=1');
  });

  it('prints the trace with VIGIL_DEBUG=1', async () => {
    const { code, stderr } = await runWithBrokenStdout(true);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^\s+at /m);
  });
});
