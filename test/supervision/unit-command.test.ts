import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers/supervise-fixture.js';

// The built bin, run as an operator runs it: executed, so its shebang picks the node and its options.
const BIN = resolve(import.meta.dirname, '../../dist/cli/bin.js');

function runBin(
  bin: string,
  argv: string[],
  root: string,
): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(bin, argv, {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: root,
      XDG_STATE_HOME: join(root, 'state'),
      XDG_CONFIG_HOME: join(root, 'config'),
      NO_COLOR: '1',
    },
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('vigil unit, run from its built bin', () => {
  it('leaves --env-file to vigil: Node neither fails on it nor loads it', () => {
    const root = tempDir();
    const marker = join(root, 'node-loaded-it');
    const evil = join(root, 'evil.cjs');
    writeFileSync(evil, `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x');\n`);
    const envFile = join(root, 'llm.env');
    writeFileSync(envFile, `NODE_OPTIONS=--require ${evil}\nHF_TOKEN=hf_x\n`);
    for (const file of ['/etc/llm.env.missing', envFile]) {
      const run = runBin(BIN, ['unit', '--name', 'llm', '--env-file', file, '--', '/bin/true'], root);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`EnvironmentFile=-${file}\n`);
    }
    expect(() => realpathSync(marker)).toThrow();
  });

  it("writes this node and the script's real path into ExecStartPre", () => {
    const run = runBin(BIN, ['unit', '--name', 'llm', '--', '/bin/true'], tempDir());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `ExecStartPre=${process.execPath} -- ${realpathSync(BIN)} check --gpu --wait-gpu-free 300 --skip-python -- /bin/true\n`,
    );
  });

  it("refuses to write npx's cache into a unit", () => {
    const root = tempDir();
    const cached = join(root, '_npx', '3f2a', 'node_modules', 'vigil', 'dist', 'cli');
    mkdirSync(cached, { recursive: true });
    cpSync(resolve(BIN, '..'), cached, { recursive: true });
    const run = runBin(join(cached, 'bin.js'), ['unit', '--name', 'llm', '--', '/bin/true'], root);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(
      /^vigil: vigil runs from npx's cache \(.*_npx.*\), which npm may delete: .*--vigil PATH\n$/,
    );
  });
});
