import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/run-cli-captured.js';

// Bad input to the long watch is found before anything is followed: one line, exit 2, no trace.

describe('vigil watch --follow, bad input', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bad-input-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const log = join(dir, 'server.log');
  writeFileSync(log, '');
  const notADir = join(dir, 'a-file');
  writeFileSync(notADir, '');
  const base = ['watch', '--follow', '--state-dir', join(dir, 'state')];

  it.each([
    {
      scenario: 'a malformed webhook URL',
      args: [...base, '--log', log, '--webhook', 'not a url'],
      says: '--webhook: not a URL',
    },
    {
      scenario: 'a receiver URL that is not http',
      args: [...base, '--log', log, '--alertmanager', 'ftp://x/'],
      says: 'only http and https',
    },
    {
      scenario: 'a log file that is not there',
      args: [...base, '--log', join(dir, 'missing.log')],
      says: 'missing.log: ENOENT',
    },
    { scenario: 'nothing to follow', args: base, says: 'give what to follow' },
    { scenario: 'a unit name that cannot be one', args: [...base, '--unit', 'no/such unit'], says: 'unit' },
    {
      scenario: 'a state folder that cannot be made',
      args: ['watch', '--follow', '--log', log, '--state-dir', join(notADir, 'state')],
      says: 'cannot use the state folder',
    },
    {
      scenario: 'a listen address without a port',
      args: [...base, '--log', log, '--metrics-listen', '127.0.0.1'],
      says: 'give HOST:PORT',
    },
    {
      scenario: 'a receiver without --follow',
      args: ['watch', '--unit', 'vllm', '--webhook', 'http://127.0.0.1:1/'],
      says: 'go with --follow',
    },
    {
      scenario: 'an unclosed quote in --on-failure',
      args: [...base, '--log', log, '--on-failure', 'notify "x'],
      says: 'unclosed',
    },
  ])('$scenario', async ({ args, says }) => {
    const result = await runCliCaptured(args);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain(says);
    expect(result.stderr).not.toContain('internal error');
  });

  it('vigil incidents: an unknown id and an unknown action are one line and exit 2', async () => {
    const empty = join(dir, 'empty-state');
    for (const args of [
      ['incidents', 'show', 'nope', '--state-dir', empty],
      ['incidents', 'frobnicate', '--state-dir', empty],
    ]) {
      const result = await runCliCaptured(args);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    const list = await runCliCaptured(['incidents', '--state-dir', empty]);
    expect(list).toMatchObject({ code: 0, stdout: 'no incidents\n' });
  });
});
