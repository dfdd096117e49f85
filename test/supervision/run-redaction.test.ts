import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/run-cli-captured.js';

// A server that dies quoting its own token, as a failed Hub download does.
const SCRIPT = `console.error('Traceback (most recent call last):');
console.error('  File "/x/vllm/entrypoints/api.py", line 1, in main');
console.error("OSError: 401 Client Error for https://user:s3cretpass@hub.example/x with HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEF1234");
process.exit(1);`;

/** `vigil run` (no pre-flight, quiet, no history) of `node -e SCRIPT`, with `flags` before the `--`. */
function runNode(script: string, ...flags: string[]): ReturnType<typeof runCliCaptured> {
  return runCliCaptured([
    'run',
    '--no-preflight',
    '--quiet',
    '--no-history',
    ...flags,
    '--',
    process.execPath,
    '-e',
    script,
  ]);
}

describe('vigil run crash report', () => {
  it('redacts secrets by default and keeps them with --no-redact', async () => {
    const redacted = await runNode(SCRIPT);
    expect(redacted.code).toBe(1);
    expect(redacted.stdout).toContain('OSError');
    expect(redacted.stdout).not.toContain('hf_abcdefghijklmnopqrstuvwxyzABCDEF1234');
    expect(redacted.stdout).not.toContain('s3cretpass');

    const plain = await runNode(SCRIPT, '--no-redact');
    expect(plain.stdout).toContain('hf_abcdefghijklmnopqrstuvwxyzABCDEF1234');
  });

  it('redacts the last lines the server printed when no failure was diagnosed', async () => {
    // The attack review's repro: the server prints its arguments and exits 3 without a traceback.
    const printer = `console.log(${JSON.stringify(
      'INFO non-default args: {"api_key": "k3y-0123456789abcdef", "hf_token": "hf_abcdefghijklmnopqrstuvwxyzABCDEF1234", "database_url": "postgresql://vigil:dbpa55word@db:5432/x"}',
    )}); process.exit(3);`;
    const result = await runNode(printer);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('The last lines the server printed');
    expect(result.stdout).toContain('non-default args');
    for (const secret of ['k3y-0123456789abcdef', 'abcdefghijklmnopqrstuvwxyzABCDEF1234', 'dbpa55word'])
      expect(result.stdout).not.toContain(secret);
    const plain = await runNode(printer, '--no-redact');
    expect(plain.stdout).toContain('dbpa55word');
  });
});
