import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { renderUnitFile, type UnitFileOptions } from '../../src/supervision/unit-file.js';

// Issue 15, item 4: no value given to `vigil unit` can add a directive or swallow one.
const base: UnitFileOptions = {
  name: 'vllm-test',
  command: process.execPath,
  args: ['serve', 'm'],
  vigil: [process.execPath],
  environmentFile: '/etc/vigil/vllm-test.env',
  gpuWaitSeconds: 60,
  restartSec: 30,
  startLimitBurst: 3,
  supervise: false,
};

const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
if (!hasAnalyze) console.log('skipping systemd-analyze verify tests: install the Debian package systemd');

/** `systemd-analyze verify` on the unit: its exit status and what it said. */
function verify(unit: string): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-unit-'));
  try {
    const file = join(dir, 'vllm-test.service');
    writeFileSync(file, unit);
    const run = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8', timeout: 30_000 });
    return { status: run.status, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The directives of a unit file as systemd reads them: comments dropped, continuation lines joined. */
function directives(unit: string): string[] {
  const out: string[] = [];
  let pending = '';
  for (const line of unit.split('\n')) {
    if (pending === '' && (line.startsWith('#') || line.startsWith(';'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const whole = pending + line;
    pending = '';
    if (whole.includes('=')) out.push(whole.slice(0, whole.indexOf('=')));
  }
  return out;
}

const EXPECTED = directives(renderUnitFile({ ...base, user: 'svc', workingDirectory: '/srv/models' }));

describe('vigil unit refuses values that would change the unit', () => {
  it.each([
    ['a newline in --user', { user: 'svc\nExecStartPre=+/bin/sh -c "id > /tmp/pwned"' }],
    ['a newline in --description', { description: 'x\nExecStartPre=+/bin/sh -c "id"' }],
    ['a carriage return in --description', { description: 'x\rExecStartPre=+/bin/sh' }],
    ['a trailing backslash in --description', { description: 'my server \\' }],
    ['a trailing backslash in --working-directory', { workingDirectory: '/srv/models\\' }],
    ['a newline in --working-directory', { workingDirectory: '/srv/a\nUser=root' }],
    ['a newline in --env-file', { environmentFile: '/etc/x.env\nExecStartPre=+/bin/sh' }],
    ['a relative --working-directory', { workingDirectory: 'models' }],
    ['spaces in --user', { user: 'svc user' }],
    ['a specifier in --user', { user: '%u' }],
  ])('%s', (_name, extra) => {
    expect(() => renderUnitFile({ ...base, ...extra })).toThrow(UsageError);
  });
});

describe.skipIf(!hasAnalyze)('systemd-analyze verify accepts what vigil unit writes', () => {
  it.each([
    ['plain', {}],
    ['a space in --working-directory', { workingDirectory: '/srv/my models' }],
    [
      'specifiers and variables in the description',
      { description: 'Kimi at 100% on $HOME, "quoted" and \\back' },
    ],
    ['a % and a $ in the working directory', { workingDirectory: '/srv/100%/$x' }],
    [
      'hostile arguments',
      { args: ['serve', 'a\nExecStartPre=+/bin/sh -c id', 'end\\', '50%', '$HOME', '"q"', "it's", ';'] },
    ],
    [
      'supervised with a health URL',
      { supervise: true, healthUrl: 'http://127.0.0.1:8000/health?a=1&b=%20' },
    ],
  ])('%s', (_name, extra) => {
    const unit = renderUnitFile({ ...base, user: 'root', workingDirectory: '/srv/models', ...extra });
    const result = verify(unit);
    expect(result.output).not.toMatch(/Unknown key|Missing '='|bad unit file setting|not absolute|Invalid/i);
    expect(result.status, result.output).toBe(0);
    // The same directives as a plain unit: no value added one (supervising adds RestartPreventExitStatus).
    const added = 'supervise' in extra && extra.supervise ? ['RestartPreventExitStatus'] : [];
    expect(directives(unit).filter((d) => !added.includes(d))).toEqual(EXPECTED);
  });

  it('the old output with a newline in --user added a root ExecStartPre (the check catches it)', () => {
    const injected = renderUnitFile({ ...base, user: 'root' }).replace(
      'User=root',
      'User=root\nExecStartPre=+/bin/sh -c "id"',
    );
    expect(verify(injected).status).toBe(0);
    expect(directives(injected)).not.toEqual(directives(renderUnitFile({ ...base, user: 'root' })));
  });
});
