import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runVigil, tempDir } from '../hostile/cli-harness.js';

const INCIDENT = readFileSync(
  resolve(import.meta.dirname, '../../examples/vllm-kimi-k25-flashinfer-mismatch.journal.log'),
);
const HEALTHY = [
  'INFO 02-20 23:31:07 [api_server.py:1] vLLM API server version 0.11.0',
  'INFO:     Application startup complete.',
  'INFO:     127.0.0.1:51234 - "GET /health HTTP/1.1" 200 OK',
  '',
].join('\n');

async function files(): Promise<{ healthy: string; crash: string; empty: string }> {
  const dir = await tempDir();
  const paths = {
    healthy: join(dir, 'today.log'),
    crash: join(dir, 'yesterday.log'),
    empty: join(dir, 'rotated.log'),
  };
  writeFileSync(paths.healthy, HEALTHY);
  writeFileSync(paths.crash, INCIDENT);
  writeFileSync(paths.empty, '');
  return paths;
}

describe('vigil diagnose with several files: one verdict per file', () => {
  it('reports each file under its name, the root cause as file:line, then a summary', async () => {
    const { healthy, crash } = await files();
    const result = await runVigil(['diagnose', healthy, crash]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`── ${healthy}\n✔ no failure found in 3 lines`);
    expect(result.stdout).toContain(`── ${crash}\n✖ failure RuntimeError: flashinfer-cubin version (0.6.3)`);
    // Line numbers count within the file, not across the files.
    expect(result.stdout).toContain('summary: 2 files: 1 with a failure, 1 without, 0 not read\n');
    expect(result.stdout).toContain(`  ✔ ${healthy}: no failure found in 3 lines\n`);
    expect(result.stdout).toMatch(
      new RegExp(`  ✖ ${crash.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1446: flashinfer-cubin version`),
    );
  });

  it('a file that cannot be read is its own line and the others are still reported (exit 2 when none failed)', async () => {
    const { healthy, empty } = await files();
    const result = await runVigil(['diagnose', healthy, empty]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`vigil: ${empty} is empty: there is no log line to diagnose\n`);
    expect(result.stdout).toContain(`  ✔ ${healthy}: no failure found in 3 lines\n`);
    expect(result.stdout).toContain(`  ! ${empty} is empty: there is no log line to diagnose\n`);
  });

  it('gives one JSON object per file', async () => {
    const { healthy, crash, empty } = await files();
    const result = await runVigil(['diagnose', '--format', 'json', crash, healthy, empty]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      files: {
        file: string;
        error?: string;
        diagnosis?: { verdict: string; rootCause: { lineNumber: number } | null };
      }[];
    };
    expect(report.files.map((entry) => [entry.file, entry.diagnosis?.verdict ?? entry.error])).toEqual([
      [crash, 'failure'],
      [healthy, 'no-failure'],
      [empty, `${empty} is empty: there is no log line to diagnose`],
    ]);
    expect(report.files[0]?.diagnosis?.rootCause?.lineNumber).toBe(1446);
  });
});

describe('a broken rule file among the user’s rules', () => {
  it('is a warning naming the file and the whole YAML problem; the report comes from the other rules', async () => {
    const { crash } = await files();
    const rules = await tempDir();
    writeFileSync(join(rules, 'broken.yaml'), 'id: x\nmatch:\n  message: [unclosed\n  other: 1\n');
    const result = await runVigil(['diagnose', '--rules', rules, crash], {
      env: { XDG_CONFIG_HOME: join(rules, 'config') },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^✖ failure RuntimeError: flashinfer-cubin version/);
    expect(result.stdout).toContain(
      `warning: skipped the rule file ${join(rules, 'broken.yaml')}: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 4, column 3, at \`other: 1\``,
    );
  });
});
