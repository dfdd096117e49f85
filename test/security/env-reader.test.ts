import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeEnvironment, type DistributionSpec } from '../check/helpers/write-environment.js';
import { expectRefused, runBin, tempDir } from './helpers.js';

// Issue 31, item 8 (the environment reader): what a hostile or damaged site-packages may not make `check`
// or `snapshot` say. Real folders and files; the real CLI.

const VLLM: DistributionSpec = { name: 'vllm', version: '0.16.0', requires: ['flashinfer-python==0.6.4'] };
const FLASHINFER: DistributionSpec = { name: 'flashinfer-python', version: '0.6.4' };

interface Finding {
  id: string;
  severity: string;
  detail: string;
}

async function check(site: string): Promise<{ code: number | null; findings: Finding[] }> {
  const result = await runBin(['check', '--site-packages', site, '--format', 'json'], {
    env: { PATH: '/nonexistent', HOME: site },
  });
  expect(result.stderr).toBe('');
  const report = JSON.parse(result.stdout) as { findings: Finding[] };
  return { code: result.code, findings: report.findings.filter((finding) => finding.severity !== 'info') };
}

describe('an unreadable dist-info is unreadable, not a missing package', () => {
  it('METADATA that is a FIFO: no false requirement-unmet', async () => {
    const site = writeEnvironment(join(tempDir(), 'env'), [VLLM, FLASHINFER]).sitePackages;
    const metadata = join(site, 'flashinfer_python-0.6.4.dist-info', 'METADATA');
    rmSync(metadata);
    execFileSync('mkfifo', [metadata]);
    const { findings } = await check(site);
    expect(findings.map((finding) => finding.id)).toEqual(['metadata-unreadable']);
    expect(findings[0]?.detail).toMatch(/METADATA is not a regular file/);
  });

  it('a dist-info whose name is not UTF-8: said so, never "METADATA is missing", no requirement-unmet', async () => {
    const site = writeEnvironment(join(tempDir(), 'env'), [VLLM, FLASHINFER]).sitePackages;
    const folder = join(site, 'flashinfer_python-0.6.4.dist-info');
    // A Latin-1 é (byte 0xE9) in the name, as an old tarball leaves it.
    const latin1 = Buffer.concat([
      Buffer.from(`${site}/flashinfer_python-0.6.4`),
      Buffer.from([0xe9]),
      Buffer.from('.dist-info'),
    ]);
    renameSync(folder, latin1);
    const { findings } = await check(site);
    expect(findings.map((finding) => finding.id)).toEqual(['metadata-unreadable']);
    expect(findings[0]?.detail).toMatch(/not UTF-8/);
    expect(findings[0]?.detail).not.toMatch(/missing/);
  });
});

describe('versions and names pip would flag', () => {
  it('torch and Torch both installed: a duplicate', async () => {
    const site = writeEnvironment(join(tempDir(), 'env'), [
      { name: 'torch', version: '2.9.0' },
      { name: 'Torch', version: '2.8.0' },
    ]).sitePackages;
    const { code, findings } = await check(site);
    expect(code).toBe(1);
    expect(findings.map((finding) => finding.id)).toEqual(['duplicate-distribution']);
    expect(findings[0]?.detail).toMatch(/2\.8\.0.*2\.9\.0/);
  });

  it('a version that is not PEP 440 is reported', async () => {
    const site = writeEnvironment(join(tempDir(), 'env'), [
      { name: 'weird', version: 'garbage!!version' },
    ]).sitePackages;
    const { findings } = await check(site);
    expect(findings.map((finding) => finding.id)).toEqual(['metadata-unreadable']);
    expect(findings[0]?.detail).toMatch(/"garbage!!version", which is not a PEP 440 version/);
  });
});

describe('snapshot', () => {
  it('finding no distributions is exit 2 with one line, not an empty list', async () => {
    const empty = join(tempDir(), 'site-packages');
    mkdirSync(empty);
    const result = await runBin(['snapshot', '--site-packages', empty], {
      env: { PATH: '/nonexistent', HOME: empty },
    });
    expectRefused(result, /no installed distributions found in .*site-packages/);
    expect(result.stdout).toBe('');
  });
});
