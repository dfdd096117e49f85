import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectResult, runVigil, spawnVigil, writeFiles } from './cli-harness.js';
import { LEAKY_CRASH, SECRETS } from './fixtures.js';

// Needs `vigil diagnose` to call redactDiagnosis before rendering unless --no-redact (issue 7).
const FORMATS = ['text', 'json', 'markdown'] as const;

async function leakyLog(): Promise<string> {
  const dir = await writeFiles({ 'leaky.log': `${LEAKY_CRASH}\n` });
  return join(dir, 'leaky.log');
}

describe.each(FORMATS)('vigil diagnose --format %s', (format) => {
  it('redacts secrets by default', async () => {
    const result = await runVigil(['diagnose', await leakyLog(), '--format', format]);
    expectResult(result);
    expect(result.code).toBe(1);
    const output = result.stdout + result.stderr;
    for (const [kind, secret] of Object.entries(SECRETS))
      expect(output, `${kind} leaked`).not.toContain(secret);
    expect(output).toContain('[REDACTED]');
    // The diagnosis itself survives redaction.
    expect(output).toContain('cannot fetch config with token');
  });

  it('keeps them with --no-redact', async () => {
    const result = await runVigil(['diagnose', await leakyLog(), '--format', format, '--no-redact']);
    expectResult(result);
    expect(result.stdout).toContain(SECRETS.hfToken);
    expect(result.stdout).toContain(SECRETS.urlPassword);
  });
});

describe('redaction in a real process', () => {
  it('the default text report leaks no secret', async () => {
    const result = await spawnVigil(['diagnose', await leakyLog()]);
    expectResult(result);
    for (const secret of Object.values(SECRETS)) expect(result.stdout + result.stderr).not.toContain(secret);
  });

  it('the JSON output parses and leaks no secret', async () => {
    const result = await spawnVigil(['diagnose', await leakyLog(), '--format', 'json']);
    expectResult(result);
    const json: unknown = JSON.parse(result.stdout);
    for (const secret of Object.values(SECRETS)) expect(JSON.stringify(json)).not.toContain(secret);
  });
});
