import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../src/types/diagnosis.js';
import { runCliCaptured } from '../helpers/run-cli-captured.js';
import { JOURNAL_REMOTE, entriesFromShortLog, writeJournalFile } from '../sources/helpers/write-journal.js';

const EXAMPLE = 'examples/vllm-kimi-k25-flashinfer-mismatch.journal.log';
/** A third start after the incident's two failed ones, up and serving: the fix was installed. */
const UP_AGAIN = [
  'Feb 20 23:40:01 llm-two systemd[1]: Starting vllm-kimi-k25.service - vLLM OpenAI server (Kimi-K2.5 NVFP4, TP8)...',
  'Feb 20 23:40:02 llm-two systemd[1]: Started vllm-kimi-k25.service - vLLM OpenAI server (Kimi-K2.5 NVFP4, TP8).',
  'Feb 20 23:40:09 llm-two vllm-kimi[14001]: INFO 02-20 23:40:09 [__init__.py:216] Automatically detected platform cuda.',
  'Feb 20 23:49:30 llm-two vllm-kimi[14001]: (APIServer pid=14001) INFO:     Application startup complete.',
].join('\n');

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(JOURNAL_REMOTE === undefined)('diagnose --unit when the latest start is up again', () => {
  it('puts the latest start first ("running since"), the earlier failure as history, exit 0', async () => {
    dir = await mkdtemp(join(tmpdir(), 'vigil-up-again-'));
    const file = join(dir, 'unit.journal');
    const text = `${await readFile(EXAMPLE, 'utf8')}\n${UP_AGAIN}\n`;
    await writeJournalFile(entriesFromShortLog(text, { unit: 'vllm-kimi-k25.service' }), file);
    const args = ['diagnose', '--unit', 'vllm-kimi-k25', '--journal-file', file];

    const shown = await runCliCaptured(args);
    expect(shown.code).toBe(0);
    expect(shown.stdout.split('\n')[0]).toBe(
      "● vllm-kimi-k25.service is running since Feb 20 23:40:01 (its latest start); the failure below is an earlier start's",
    );
    expect(shown.stdout).toContain('✖ earlier failure RuntimeError: flashinfer-cubin version (0.6.3)');

    const json = await runCliCaptured([...args, '--format', 'json']);
    expect(json.code).toBe(0);
    const d = JSON.parse(json.stdout) as Diagnosis;
    expect(d.current).toEqual({ state: 'running', since: 'Feb 20 23:40:01' });
    expect(d.signature?.id).toBe('flashinfer-version-mismatch');
    expect(d.input.source).toMatch(/a later start \w{8} is running$/);

    const markdown = await runCliCaptured([...args, '--format', 'markdown']);
    expect(markdown.stdout).toMatch(
      /^## Vigil diagnosis: `vllm-kimi-k25\.service` is running since Feb 20 23:40:01\n/,
    );
    expect(markdown.stdout).toContain('### Earlier failure: ');
  });
});
