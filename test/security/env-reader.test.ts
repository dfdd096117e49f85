import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

/** METADATA with a Latin-1 byte (0xE9, é) where `where` says: Python's importlib.metadata raises on any. */
function latin1Metadata(name: string, version: string, where: 'name' | 'requirement' | 'author'): Buffer {
  const e = Buffer.from([0xe9]);
  const head = Buffer.from(`Metadata-Version: 2.1\nName: ${name}`);
  const tail = (text: string) => Buffer.from(text);
  if (where === 'name') return Buffer.concat([head, e, tail(`\nVersion: ${version}\n\n`)]);
  if (where === 'requirement') {
    return Buffer.concat([
      head,
      tail(`\nVersion: ${version}\nRequires-Dist: flashinfer-python==0.6.4`),
      e,
      tail('\n\n'),
    ]);
  }
  return Buffer.concat([head, tail(`\nVersion: ${version}\nAuthor: Ren`), e, tail('\n\nCaf'), e, tail('\n')]);
}

describe('a METADATA that is not UTF-8 is one clear line, never a false requirement finding', () => {
  it.each([
    ['flashinfer-python', 'its Name', 'name', 'flashinfer_python-0.6.4.dist-info', 2],
    ['flashinfer-python', 'its Author and description', 'author', 'flashinfer_python-0.6.4.dist-info', 4],
    ['vllm', 'a Requires-Dist line', 'requirement', 'vllm-0.16.0.dist-info', 4],
  ] as const)('%s with a Latin-1 byte in %s', async (name, _where, where, folder, line) => {
    const site = writeEnvironment(join(tempDir(), 'env'), [VLLM, FLASHINFER]).sitePackages;
    const version = name === 'vllm' ? '0.16.0' : '0.6.4';
    writeFileSync(join(site, folder, 'METADATA'), latin1Metadata(name, version, where));
    const { code, findings } = await check(site);
    expect(findings.map((finding) => finding.id)).toEqual(['metadata-unreadable']);
    expect(findings[0]?.detail).toContain(
      `${folder}: METADATA is not UTF-8 (byte 0xE9 on line ${line}): Python's importlib.metadata cannot read it`,
    );
    expect(code).toBe(0);
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
