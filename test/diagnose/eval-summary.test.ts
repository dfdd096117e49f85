import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/run-cli-captured.js';

/** `vigil eval --all`: every figure of the eval in one table, from folders of labelled logs. */
const root = mkdtempSync(join(tmpdir(), 'vigil-eval-all-'));
const env = { HOME: root, XDG_STATE_HOME: join(root, 'state'), XDG_CONFIG_HOME: join(root, 'config') };

function writeCase(dir: string, name: string, lines: string[], label: object): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.log`), `${lines.join('\n')}\n`);
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(label));
}

const failures = join(root, 'failures');
const healthy = join(root, 'healthy');
writeCase(
  failures,
  'vllm-001',
  [
    'Traceback (most recent call last):',
    '  File "/v/vllm/model_executor/model_loader/loader.py", line 10, in load_model',
    "ModuleNotFoundError: No module named 'flash_attn'",
  ],
  {
    engine: 'vllm',
    category: 'missing-dependency',
    root_cause: { exception: 'ModuleNotFoundError', message_contains: "No module named 'flash_attn'" },
  },
);
writeCase(
  healthy,
  'vllm-001',
  [
    'INFO 09-02 08:00:00 [api_server.py:1880] vLLM API server version 0.10.1',
    'INFO:     Application startup complete.',
    ...Array.from(
      { length: 40 },
      () => 'INFO:     10.0.0.1:50312 - "POST /v1/chat/completions HTTP/1.1" 200 OK',
    ),
  ],
  { engine: 'vllm', root_cause: null },
);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('eval --all', () => {
  it('prints alone, both boundaries, --no-signatures and the healthy logs in one table, exit 0', async () => {
    const result = await runCliCaptured(['eval', '--all', failures, '--haystack', healthy], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const row = (title: string): string | undefined =>
      result.stdout.split('\n').find((line) => line.startsWith(title));
    expect(row('root cause, failure log alone')).toMatch(/1\/1 \(100\.0%\)$/);
    expect(row('category, failure log alone')).toMatch(/1\/1 \(100\.0%\)$/);
    expect(row('root cause, after the healthy logs (boundary none)')).toMatch(/1\/1 \(100\.0%\)$/);
    expect(row('root cause, after the healthy logs (boundary systemd)')).toMatch(/1\/1 \(100\.0%\)$/);
    expect(row('healthy line blamed, after the healthy logs (boundary none)')).toMatch(/0 of 1$/);
    expect(row('root cause, general classifier alone (--no-signatures)')).toMatch(/1\/1 \(100\.0%\)$/);
    expect(row('healthy logs blamed for a failure')).toBe(
      'healthy logs blamed for a failure: 0 of 1 alone; all in a row: none clean, systemd clean',
    );
  });

  it('says which case a mode missed, and exits 1', async () => {
    const missing = join(root, 'missing');
    writeCase(missing, 'vllm-002', ['INFO all is well'], {
      engine: 'vllm',
      category: 'other',
      root_cause: { exception: 'RuntimeError', message_contains: 'boom' },
    });
    const result = await runCliCaptured(['eval', '--all', missing], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`[alone] miss ${missing}/vllm-002.log: no root cause reported`);
    // Without --haystack there is nothing to place the failures in: those rows are left out.
    expect(result.stdout).not.toContain('after the healthy logs');
  });

  it('refuses --boundary and --no-signatures beside --all, exit 2', async () => {
    for (const flag of [['--boundary', 'systemd'], ['--no-signatures']]) {
      const result = await runCliCaptured(['eval', '--all', failures, ...flag], { env });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--all scores every boundary and both layers/);
    }
  });
});
