import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { diagnose, createDiagnosisSession } from '../../src/diagnosis/index.js';
import type { Diagnosis } from '../../src/types/diagnosis.js';
import { runCliCaptured } from '../helpers/run-cli-captured.js';
import { JOURNAL_REMOTE, entriesFromShortLog, writeJournalFile } from '../sources/helpers/write-journal.js';

const EXAMPLE = 'examples/vllm-kimi-k25-flashinfer-mismatch.journal.log';
const WORKERS = Array.from({ length: 8 }, (_, i) => `Worker_TP${i}`);

function expectIncident(d: Diagnosis): void {
  expect(d.verdict).toBe('failure');
  expect(d.rootCause?.exception).toBe('RuntimeError');
  expect(d.rootCause?.message).toMatch(
    /^flashinfer-cubin version \(0\.6\.3\) does not match flashinfer version \(0\.6\.4\)/,
  );
  expect(d.rootCause?.processes).toEqual(WORKERS);
  expect(d.rootCause?.crashSite).toMatchObject({ line: 998, function: '__init__' });
  expect(d.rootCause?.crashSite?.file).toMatch(/models\/deepseek_v2\.py$/);
  expect(d.rootCause?.raiseSite?.file).toMatch(/flashinfer\//);
  expect(d.signature?.id).toBe('flashinfer-version-mismatch');
  expect(d.signature?.fix).toContain('flashinfer-cubin==0.6.4');
  expect(d.symptoms.map((s) => s.message).join('\n')).toContain('Engine core initialization failed');
}

describe('the bundled incident', () => {
  it('names the flashinfer mismatch, all eight workers, both sites and the fix', async () => {
    const d = diagnose(await readFile(EXAMPLE));
    expectIncident(d);
    expect(d.service).toMatchObject({ unit: 'vllm-kimi-k25.service', failedStarts: 2, restartLoop: true });
    expect(d.noiseSuppressed).toBeGreaterThan(0);
  });

  it('gives the same diagnosis fed in odd-sized chunks as whole', async () => {
    const bytes = await readFile(EXAMPLE);
    const session = createDiagnosisSession();
    for (let i = 0; i < bytes.length; i += 777) session.push(bytes.subarray(i, i + 777));
    expect(session.end()).toEqual(diagnose(bytes));
  });

  it('reads it from stdin and from gzip through the CLI, exit 1, in every format', async () => {
    const bytes = await readFile(EXAMPLE);
    const fromStdin = await runCliCaptured(['diagnose', '-', '--format', 'json'], { stdin: bytes });
    expect(fromStdin.code).toBe(1);
    expectIncident(JSON.parse(fromStdin.stdout) as Diagnosis);

    const dir = await mkdtemp(join(tmpdir(), 'vigil-gz-'));
    await writeFile(join(dir, 'incident.log.gz'), gzipSync(bytes));
    const fromGzip = await runCliCaptured(['diagnose', join(dir, 'incident.log.gz'), '--format', 'json']);
    expect(fromGzip.code).toBe(1);
    const parsed = JSON.parse(fromGzip.stdout) as Diagnosis;
    expectIncident(parsed);
    expect(parsed.input.formats).toContain('gzip');

    const text = await runCliCaptured(['diagnose', EXAMPLE]);
    expect(text.stdout).toContain('8/8 workers (Worker_TP0..7)');
    expect(text.stdout).toContain('deepseek_v2.py:998');
    expect(text.stdout).toContain('pip install flashinfer-cubin==0.6.4');
    expect(text.stdout).toContain('verify      vigil check --venv /opt/vllm/.venv\n');
    const markdown = await runCliCaptured(['diagnose', EXAMPLE, '--format', 'markdown']);
    expect(markdown.stdout).toMatch(/^## Vigil diagnosis: /);
    expect(markdown.stdout).toContain(
      '```sh\n/opt/vllm/.venv/bin/python -m pip install flashinfer-cubin==0.6.4 --extra-index-url https://flashinfer.ai/whl\n```\n\nVerify: `vigil check --venv /opt/vllm/.venv`',
    );
  });

  it.skipIf(JOURNAL_REMOTE === undefined)(
    'reads it from a real journal file through journalctl --unit',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'vigil-journal-'));
      const file = join(dir, 'incident.journal');
      const text = await readFile(EXAMPLE, 'utf8');
      await writeJournalFile(entriesFromShortLog(text, { unit: 'vllm-kimi-k25.service' }), file);
      const result = await runCliCaptured([
        'diagnose',
        '--unit',
        'vllm-kimi-k25',
        '--journal-file',
        file,
        '--format',
        'json',
      ]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(1);
      const d = JSON.parse(result.stdout) as Diagnosis;
      expectIncident(d);
      expect(d.service).toMatchObject({ starts: 2, failedStarts: 2, restartLoop: true });
    },
  );
});
