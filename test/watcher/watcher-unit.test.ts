import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { renderWatcherUnit } from '../../src/supervision/index.js';
import { BIN, tempDir } from './helpers.js';

const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
if (!hasAnalyze)
  console.log('skipping systemd-analyze verify of the watcher unit: install the Debian package systemd');

const base = { name: 'vigil-watch', vigil: ['/usr/bin/vigil'], watchArgs: ['--unit', 'vllm-qwen'] };

describe('vigil unit --watcher', () => {
  it('is hardened: the file system read-only but for its state, no new privileges', () => {
    const unit = renderWatcherUnit({ ...base, user: 'vigil' });
    for (const line of [
      'ExecStart=/usr/bin/vigil watch --follow --state-dir /var/lib/vigil-watch/incidents --unit vllm-qwen',
      'ProtectSystem=strict',
      'ReadWritePaths=/var/lib/vigil-watch',
      'StateDirectory=vigil-watch',
      'NoNewPrivileges=yes',
      'KillSignal=SIGTERM',
      'User=vigil',
      'SupplementaryGroups=systemd-journal',
    ])
      expect(unit.split('\n')).toContain(line);
  });

  it.each([
    ['its own --state-dir in the watch arguments', { watchArgs: ['--unit', 'x', '--state-dir', '/tmp'] }],
    ['a newline in the description', { description: 'x\nExecStartPre=/bin/sh' }],
    ['a user name systemd refuses', { user: 'a b' }],
  ])('refuses %s', (_name, extra) => {
    expect(() => renderWatcherUnit({ ...base, ...extra })).toThrow(UsageError);
  });

  it.skipIf(!hasAnalyze)('passes systemd-analyze verify, as the CLI prints it', () => {
    const printed = spawnSync(
      process.execPath,
      [
        BIN,
        'unit',
        '--name',
        'vigil-watch',
        '--watcher',
        '--user',
        'vigil',
        '--',
        '--unit',
        'vllm-qwen',
        '--alertmanager',
        'http://127.0.0.1:9093',
      ],
      { encoding: 'utf8' },
    );
    expect(printed.status).toBe(0);
    const file = join(tempDir(), 'vigil-watch.service');
    writeFileSync(file, printed.stdout);
    const verify = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8', timeout: 30_000 });
    expect(`${verify.stdout}${verify.stderr}`).toBe('');
    expect(verify.status).toBe(0);
  });
});
