import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVigil } from './helpers/run-cli.js';
import { makeTempDir, writeEnvironment, type DistributionSpec } from './helpers/write-environment.js';

let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

const env = { PATH: '/nonexistent' };
const incident: DistributionSpec[] = [
  { name: 'vllm', version: '0.16.0rc2.dev344+gea5f903f8', requires: ['flashinfer-python==0.6.4'] },
  { name: 'flashinfer-python', version: '0.6.4' },
  { name: 'flashinfer-cubin', version: '0.6.3' },
];

/** A command broken with ` \\` and indented continuation lines, as one line again. */
const joinContinued = (text: string): string => text.replace(/ \\\n\s+/g, ' ');

function site(name: string, specs: DistributionSpec[]): string {
  return writeEnvironment(join(dir.path, name), specs).sitePackages;
}

describe('vigil check', () => {
  it('exits 1 on errors and prints the finding with its fix', async () => {
    const result = await runVigil(['check', '--site-packages', site('a', incident)], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'FlashInfer packages at different versions [flashinfer-version-mismatch]',
    );
    // Aimed at the environment checked, as diagnose aims it: its interpreter's pip, the package's index;
    // broken between words with a shell's continuation to fit 80 columns, so it pastes as one command.
    expect(joinContinued(result.stdout)).toContain(
      `fix: ${dir.path}/a/bin/python -m pip install flashinfer-cubin==0.6.4 --extra-index-url https://flashinfer.ai/whl`,
    );
    const fixLines = result.stdout.slice(result.stdout.indexOf('fix: ')).split('\n');
    expect(fixLines[0]).toMatch(/ \\$/);
    for (const line of fixLines.slice(0, 2)) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(result.stdout).toContain('note    GPU not inspected');
    expect(result.stdout).not.toContain('\u001b[');
    expect(result.stderr).toBe('');
  });

  it('prints schemaVersion 1 JSON and exits 0 when clean', async () => {
    const clean = incident.map((d) => (d.name === 'flashinfer-cubin' ? { ...d, version: '0.6.4' } : d));
    const folder = site('b', clean);
    const result = await runVigil(['check', '--site-packages', folder, '--format', 'json'], { env });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      schemaVersion: 1,
      environment: { python: null, pythonVersion: '3.11.7', sitePackages: [folder], distributions: 3 },
    });
    expect(report.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 'gpu-unavailable', severity: 'info', fix: null, packages: [] }),
      ]),
    );
  });

  it('renders Markdown', async () => {
    const result = await runVigil(['check', '--site-packages', site('c', incident), '--format', 'markdown'], {
      env,
    });
    expect(result.stdout).toMatch(/^## vigil check\n/);
    expect(result.stdout).toContain(
      '### ❌ FlashInfer packages at different versions (`flashinfer-version-mismatch`, error)',
    );
    expect(result.stdout).toContain(
      '-m pip install flashinfer-cubin==0.6.4 --extra-index-url https://flashinfer.ai/whl\n```',
    );
  });

  it('colours only when asked', async () => {
    const result = await runVigil(['check', '--site-packages', site('d', incident)], {
      env: { ...env, NO_COLOR: undefined, FORCE_COLOR: '1' },
    });
    expect(result.stdout).toContain('\u001b[31m');
  });

  it.each([
    [['check', '--tp', 'two'], /^vigil: --tp takes a positive whole number, got "two"\n$/],
    [['check', '--port', '70000'], /^vigil: --port takes 1 to 65535/],
    [['check', '--wait-gpu-free', 'soon'], /^vigil: --wait-gpu-free takes seconds/],
    [
      ['check', '--site-packages', '/no/such/dir'],
      /^vigil: --site-packages \/no\/such\/dir: no such folder\n$/,
    ],
    [['check', '--python', '/no/such/python'], /^vigil: \/no\/such\/python was not found/],
    [['check', '--format', 'yaml'], /^vigil: option '--format <format>' argument 'yaml' is invalid/],
  ])('exits 2 with one line for %j', async (argv, message) => {
    const result = await runVigil(argv, { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('names a bad --against file in one line', async () => {
    const bad = join(dir.path, 'bad.json');
    writeFileSync(bad, '{"schemaVersion": 1,');
    const result = await runVigil(['check', '--site-packages', site('e', []), '--against', bad], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`^vigil: ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid JSON`),
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('vigil snapshot and vigil diff', () => {
  async function snapshot(name: string, specs: DistributionSpec[]): Promise<string> {
    const result = await runVigil(['snapshot', '--site-packages', site(name, specs)], { env });
    expect(result.code).toBe(0);
    const file = join(dir.path, `${name}.json`);
    writeFileSync(file, result.stdout);
    return file;
  }

  it('records name, version, installer and source', async () => {
    const result = await runVigil(
      ['snapshot', '--site-packages', site('s', [{ name: 'torch', version: '2.10.0', installer: 'uv' }])],
      { env },
    );
    expect(JSON.parse(result.stdout)).toMatchObject({
      schemaVersion: 1,
      environment: {
        distributions: [{ name: 'torch', version: '2.10.0', installer: 'uv', source: 'index' }],
      },
    });
  });

  it('shows the changes and fails on a family that moved in part (the incident)', async () => {
    const before = await snapshot('before', [
      { name: 'vllm', version: '0.15.1' },
      { name: 'flashinfer-python', version: '0.6.3' },
      { name: 'flashinfer-cubin', version: '0.6.3' },
      { name: 'ray', version: '2.48.0' },
    ]);
    const after = await snapshot('after', [
      { name: 'vllm', version: '0.16.0rc2.dev344+gea5f903f8' },
      { name: 'flashinfer-python', version: '0.6.4' },
      { name: 'flashinfer-cubin', version: '0.6.3' },
      { name: 'apache-tvm-ffi', version: '0.1.9' },
    ]);
    const result = await runVigil(['diff', before, after], { env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('upgraded   flashinfer-python 0.6.3 → 0.6.4');
    expect(result.stdout).toContain('upgraded   vllm 0.15.1 → 0.16.0rc2.dev344+gea5f903f8');
    expect(result.stdout).toContain('added      apache-tvm-ffi 0.1.9');
    expect(result.stdout).toContain('removed    ray 2.48.0');
    expect(result.stdout).toContain('The flashinfer family moved only in part');
    expect(joinContinued(result.stdout)).toMatch(
      /fix: \S+\/bin\/python -m pip install flashinfer-cubin==0\.6\.4 --extra-index-url/,
    );

    const json = JSON.parse(
      (await runVigil(['diff', before, after, '--format', 'json'], { env })).stdout,
    ) as Record<string, unknown>;
    expect(json).toMatchObject({
      schemaVersion: 1,
      diff: { removed: [{ name: 'ray' }] },
      findings: [{ id: 'family-moved-in-part' }],
    });
  });

  it('exits 0 for a diff without partial moves and 2 for a file that is not a snapshot', async () => {
    const a = await snapshot('a', [{ name: 'numpy', version: '2.2.6' }]);
    expect((await runVigil(['diff', a, a], { env })).code).toBe(0);
    const notSnapshot = join(dir.path, 'x.json');
    writeFileSync(notSnapshot, '{"hello": 1}');
    const result = await runVigil(['diff', a, notSnapshot], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^vigil: .*x\.json is not a vigil snapshot \(schemaVersion 1\)/);
    const missing = await runVigil(['diff', a, join(dir.path, 'missing.json')], { env });
    expect(missing.stderr).toMatch(/^vigil: cannot read snapshot .*missing\.json: ENOENT\n$/);
  });
});
