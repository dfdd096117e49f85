import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm pack` gives the tarball users install with `npm install -g`: installed into a fresh prefix, away
 * from this clone, its `vigil` diagnoses the incident the package carries. The install fetches the
 * package's dependencies from the npm registry into a temporary cache; without the registry it skips.
 */
const root = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
const tarballName = `${pkg.name}-${pkg.version}.tgz`;
const NPM_MS = 300_000;
let work: string;
let installed: { status: number | null; output: string };

const npm = (args: string[], cwd: string) =>
  spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    timeout: NPM_MS,
    env: { ...process.env, npm_config_cache: join(work, 'cache'), npm_config_update_notifier: 'false' },
  });

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'vigil-npm-'));
  // dist/ is built by `npm test` before the tests; prepare would build it again.
  const packed = npm(['pack', '--ignore-scripts', '--pack-destination', work, root], work);
  expect(packed.stderr).not.toMatch(/ERR!/);
  expect(packed.status).toBe(0);
  const install = npm(
    [
      'install',
      '--global',
      '--prefix',
      join(work, 'prefix'),
      '--no-audit',
      '--no-fund',
      join(work, tarballName),
    ],
    work,
  );
  installed = { status: install.status, output: install.stdout + install.stderr };
}, NPM_MS);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

const offline = () => /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH/.test(installed.output);

describe('the npm tarball', () => {
  it('holds the bundled CLI and the incident, and none of the binaries or wheels', () => {
    const list = spawnSync('tar', ['-tzf', join(work, tarballName)], { encoding: 'utf8' }).stdout.split('\n');
    expect(list).toContain('package/dist/cli/bin.js');
    expect(list).toContain('package/examples/vllm-kimi-k25-flashinfer-mismatch.journal.log');
    expect(list.filter((file) => /^package\/(?:dist\/(?:bin|wheels)|src|test|scripts)\//.test(file))).toEqual(
      [],
    );
    const packed = JSON.parse(
      spawnSync('tar', ['-xzOf', join(work, tarballName), 'package/package.json'], { encoding: 'utf8' })
        .stdout,
    ) as { name: string; bin: Record<string, string>; repository: { url: string } };
    expect(packed).toMatchObject({ name: 'vigil-llm', bin: { vigil: 'dist/cli/bin.js' } });
    expect(packed.repository.url).toMatch(/^git\+https:\/\/github\.com\/.+\.git$/);
  });

  it('installs with npm install -g and runs the incident, away from the clone', (context) => {
    if (offline()) {
      console.log('npm install -g of the tarball skipped: the npm registry is not reachable');
      context.skip();
    }
    expect(installed.output).not.toMatch(/ERR!/);
    expect(installed.status).toBe(0);
    const vigil = join(work, 'prefix/bin/vigil');
    const example = join(
      work,
      'prefix/lib/node_modules/vigil-llm/examples/vllm-kimi-k25-flashinfer-mismatch.journal.log',
    );
    const env = { PATH: process.env.PATH, HOME: work };
    const version = spawnSync(vigil, ['--version'], { cwd: work, encoding: 'utf8', env });
    expect(version.stdout).toBe(
      `vigil ${pkg.version}\ninstalled as npm package vigil-llm (Node.js ${process.versions.node})\n`,
    );
    const result = spawnSync(vigil, ['diagnose', example], { cwd: work, encoding: 'utf8', env });
    // The report wraps to the terminal's width: its words are read with line breaks as spaces.
    expect(result.stdout.replace(/\s+/g, ' ')).toContain(
      'flashinfer-cubin version (0.6.3) does not match flashinfer version (0.6.4)',
    );
    expect(result.status).toBe(1);
  });
});
