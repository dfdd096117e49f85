import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/run-cli-captured.js';

const INCIDENT = 'examples/vllm-kimi-k25-flashinfer-mismatch.journal.log';
/** The fix at 80 columns: broken between words with a shell's continuation, so it pastes as one command. */
const FIX = [
  'fix         /opt/vllm/.venv/bin/python -m pip install flashinfer-cubin==0.6.4 \\',
  '              --extra-index-url https://flashinfer.ai/whl',
].join('\n');

describe('the text report fits the terminal', () => {
  it('at COLUMNS=80: the verdict and the fix within the first 10 lines, words wrapped to 80', async () => {
    const result = await runCliCaptured(['diagnose', INCIDENT], { env: { COLUMNS: '80' } });
    expect(result.code).toBe(1);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^✖ failure RuntimeError: flashinfer-cubin version/);
    const first10 = lines.slice(0, 10).join('\n');
    expect(first10).toContain(FIX);
    expect(first10).toContain('verify      vigil check --venv /opt/vllm/.venv');
    // Every line, the commands too.
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(80);
  });

  it('evidence lines are cut with a mark at a word boundary, not wrapped', async () => {
    const result = await runCliCaptured(['diagnose', INCIDENT], { env: { COLUMNS: '80' } });
    const evidence = result.stdout.split('\n').filter((line) => /^\s+\d+ {2}Feb 20/.test(line));
    expect(evidence.length).toBeGreaterThan(0);
    for (const line of evidence) {
      expect([...line].length).toBeLessThanOrEqual(80);
      // Cut after a whole word: the text before the mark ends where the log's line has a space.
      if (line.endsWith('…')) expect(line).toMatch(/\S…$/);
    }
    expect(evidence.some((line) => line.endsWith('…'))).toBe(true);
  });

  it('a wider terminal gets longer lines; no COLUMNS and no terminal means 80', async () => {
    const wide = await runCliCaptured(['diagnose', INCIDENT], { env: { COLUMNS: '160' } });
    const plain = await runCliCaptured(['diagnose', INCIDENT], { env: { COLUMNS: undefined } });
    const longest = (text: string): number => Math.max(...text.split('\n').map((l) => [...l].length));
    expect(longest(wide.stdout)).toBeGreaterThan(80);
    expect(longest(wide.stdout)).toBeLessThanOrEqual(160);
    expect(longest(plain.stdout)).toBeLessThanOrEqual(80);
  });

  it('--brief prints only the verdict, the fix and how to verify it', async () => {
    const result = await runCliCaptured(['diagnose', '--brief', INCIDENT], { env: { COLUMNS: '80' } });
    expect(result.code).toBe(1);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^✖ failure /);
    expect(lines.slice(-3, -1).join('\n')).toBe(FIX);
    expect(lines.at(-1)).toBe('verify      vigil check --venv /opt/vllm/.venv');
    expect(result.stdout).not.toContain('evidence');
    expect(result.stdout).not.toContain('meaning');
  });
});
