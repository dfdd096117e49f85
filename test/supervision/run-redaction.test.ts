import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/run-cli-captured.js';

// A server that dies quoting its own token, as a failed Hub download does.
const SCRIPT = `console.error('Traceback (most recent call last):');
console.error('  File "/x/vllm/entrypoints/api.py", line 1, in main');
console.error("OSError: 401 Client Error for https://user:s3cretpass@hub.example/x with HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEF1234");
process.exit(1);`;

describe('vigil run crash report', () => {
  it('redacts secrets by default and keeps them with --no-redact', async () => {
    const redacted = await runCliCaptured([
      'run',
      '--no-preflight',
      '--quiet',
      '--no-history',
      '--',
      process.execPath,
      '-e',
      SCRIPT,
    ]);
    expect(redacted.code).toBe(1);
    expect(redacted.stdout).toContain('OSError');
    expect(redacted.stdout).not.toContain('hf_abcdefghijklmnopqrstuvwxyzABCDEF1234');
    expect(redacted.stdout).not.toContain('s3cretpass');

    const plain = await runCliCaptured([
      'run',
      '--no-preflight',
      '--quiet',
      '--no-history',
      '--no-redact',
      '--',
      process.execPath,
      '-e',
      SCRIPT,
    ]);
    expect(plain.stdout).toContain('hf_abcdefghijklmnopqrstuvwxyzABCDEF1234');
  });
});
