import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { tempDir } from './helpers/supervise-fixture.js';

async function vigil(argv: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: () => true },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: new PassThrough(),
    env: { NO_COLOR: '1', ...env },
    cwd: process.cwd(),
  });
  return { code, stderr };
}

function executable(path: string, text: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

/** A venv with flashinfer-python 0.6.4 beside flashinfer-cubin `cubin` (the incident when they differ). */
function makeVenv(root: string, cubin: string): string {
  const venv = join(root, 'opt', 'vllm', '.venv');
  mkdirSync(venv, { recursive: true });
  writeFileSync(join(venv, 'pyvenv.cfg'), 'home = /usr/bin\n');
  // The interpreter the console script names; it "runs" the server by exiting at once.
  executable(join(venv, 'bin', 'python'), '#!/bin/sh\nexit 0\n');
  const site = join(venv, 'lib', 'python3.12', 'site-packages');
  for (const [name, version] of [
    ['flashinfer_python', '0.6.4'],
    ['flashinfer_cubin', cubin],
  ] as const) {
    mkdirSync(join(site, `${name}-${version}.dist-info`), { recursive: true });
    writeFileSync(
      join(site, `${name}-${version}.dist-info`, 'METADATA'),
      `Metadata-Version: 2.1\nName: ${name.replace('_', '-')}\nVersion: ${version}\n`,
    );
  }
  return venv;
}

describe('vigil run pre-flight: the interpreter the command runs, not python3 on PATH', () => {
  // The console script lives outside the venv's bin (installed with a wrapper, a link farm, --prefix):
  // only its shebang says which environment the server imports from.
  it('checks the venv a console script’s shebang names, and stops the mismatch', async () => {
    const root = tempDir();
    const venv = makeVenv(root, '0.6.3');
    const server = executable(join(root, 'srv', 'bin', 'vllm'), `#!${venv}/bin/python\n`);
    // PATH's python3 is missing: checking it would skip the check and start the server.
    const run = await vigil(['run', '--quiet', '--', server, 'serve', 'M'], {
      PATH: join(root, 'empty'),
      HOME: root,
      XDG_STATE_HOME: join(root, 'state'),
    });
    expect(run.stderr).toContain('flashinfer-cubin');
    // The fix aimed as `check` and `diagnose` aim it: that venv's interpreter, the package's own index.
    expect(run.stderr.replace(/ \\\n\s+/g, ' ')).toContain(
      `${venv}/bin/python -m pip install flashinfer-cubin==0.6.4 --extra-index-url https://flashinfer.ai/whl`,
    );
    expect(run.stderr).not.toMatch(/fix: (?:uv )?pip install/);
    expect(run.stderr).toMatch(/^vigil: not starting: the pre-flight check found \d+ error/m);
    // 78: the pre-flight refused the start (a restart would fail the same way).
    expect(run.code).toBe(78);
  });

  it('names the interpreter it checked in the "passed" line', async () => {
    const root = tempDir();
    const venv = makeVenv(root, '0.6.4');
    const server = executable(join(root, 'srv', 'bin', 'vllm'), `#!${venv}/bin/python\n`);
    const run = await vigil(['run', '--quiet', '--no-history', '--', server, 'serve', 'M'], {
      PATH: join(root, 'empty'),
      HOME: root,
      XDG_STATE_HOME: join(root, 'state'),
    });
    expect(run.stderr).toContain(
      `vigil: pre-flight check passed for ${join(venv, 'bin', 'python')} (2 distributions)\n`,
    );
  });

  it('puts what the pre-flight found on the --report page of the start it let through (--force)', async () => {
    const root = tempDir();
    const venv = makeVenv(root, '0.6.3');
    // This server dies at once, as the mismatch makes it.
    executable(
      join(venv, 'bin', 'python'),
      '#!/bin/sh\necho "RuntimeError: flashinfer-cubin version (0.6.3) does not match flashinfer version (0.6.4)."\nexit 1\n',
    );
    const server = executable(join(root, 'srv', 'bin', 'vllm'), `#!${venv}/bin/python\n`);
    const report = join(root, 'start.html');
    const run = await vigil(['run', '--quiet', '--force', '--report', report, '--', server, 'serve', 'M'], {
      PATH: join(root, 'empty'),
      HOME: root,
      XDG_STATE_HOME: join(root, 'state'),
    });
    expect(run.stderr).toContain('starting despite');
    expect(run.code).not.toBe(0);
    expect(existsSync(report)).toBe(true);
    const page = readFileSync(report, 'utf8');
    expect(page).toContain('Environment (pre-flight check)');
    expect(page).toContain('flashinfer-cubin');
  });
});
