import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVigil } from './helpers/run-cli.js';
import { makeTempDir, writeEnvironment } from './helpers/write-environment.js';

// Issue 15, item 7: the environment reader reads regular files only, within caps; unreadable is a finding.
let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => {
  chmodSync(dir.path, 0o755);
  dir.remove();
});

const env = { PATH: '/nonexistent' };
const isRoot = process.getuid?.() === 0;
if (isRoot)
  console.log(
    'skipping the permission test: running as root, which reads any folder (the ELOOP tests cover the path)',
  );

function siteWith(metadata: (path: string) => void): string {
  const { sitePackages } = writeEnvironment(join(dir.path, 'venv'), [{ name: 'torch', version: '2.10.0' }]);
  const info = join(sitePackages, 'evil-1.0.dist-info');
  mkdirSync(info);
  metadata(join(info, 'METADATA'));
  return sitePackages;
}

async function check(site: string) {
  const result = await runVigil(['check', '--site-packages', site, '--format', 'json'], { env });
  expect(result.stderr).not.toMatch(/internal error/);
  return {
    ...result,
    report: JSON.parse(result.stdout) as {
      findings: { id: string; severity: string; title: string; detail: string; fix: string | null }[];
    },
  };
}

describe('the environment reader', () => {
  it('refuses a METADATA that is a symlink to /dev/zero, at once', async () => {
    const site = siteWith((path) => symlinkSync('/dev/zero', path));
    const { code, report } = await check(site);
    expect(code).toBe(1);
    const finding = report.findings.find((f) => f.detail.includes('evil-1.0.dist-info'));
    expect(finding?.title).toBe('Unreadable');
    expect(finding?.detail).toMatch(/not a regular file/);
    expect(finding?.fix).not.toMatch(/remove/);
  });

  it('does not hang on a FIFO METADATA', async () => {
    const site = siteWith((path) => execFileSync('mkfifo', [path]));
    const { report } = await check(site);
    expect(report.findings.some((f) => f.title === 'Unreadable' && /not a regular file/.test(f.detail))).toBe(
      true,
    );
  }, 15_000);

  it('refuses a METADATA over its size cap without reading it', async () => {
    const site = siteWith((path) => {
      writeFileSync(path, 'Metadata-Version: 2.1\nName: evil\nVersion: 1.0\n');
      execFileSync('truncate', ['-s', '17M', path]);
    });
    const { report } = await check(site);
    expect(
      report.findings.some((f) => f.title === 'Unreadable' && /over the \d+-byte limit/.test(f.detail)),
    ).toBe(true);
  });

  it('reads 150,000 Requires-Dist lines without a stack overflow', async () => {
    const site = siteWith((path) =>
      writeFileSync(
        path,
        `Metadata-Version: 2.1\nName: evil\nVersion: 1.0\n${Array.from({ length: 150_000 }, (_, i) => `Requires-Dist: dep${i}>=1`).join('\n')}\n`,
      ),
    );
    const { code, report } = await check(site);
    expect([0, 1]).toContain(code);
    expect(report.findings.length).toBeGreaterThan(0);
  }, 60_000);

  it('calls a METADATA it cannot open unreadable, not missing (a symlink loop; root-proof)', async () => {
    const site = siteWith((path) => symlinkSync(path, path));
    const { code, report } = await check(site);
    expect(code).toBe(1);
    const finding = report.findings.find((f) => f.detail.includes('evil-1.0.dist-info'));
    expect(finding?.title).toBe('Unreadable');
    expect(finding?.detail).toMatch(/cannot be read \(ELOOP\)/);
    expect(finding?.detail).not.toMatch(/missing/);
  });

  it('a --site-packages that cannot be opened is one error line, never "0 errors" (a symlink loop; root-proof)', async () => {
    const loop = join(dir.path, 'site-packages');
    symlinkSync(loop, loop);
    const result = await runVigil(['check', '--site-packages', loop], { env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^vigil: --site-packages .*site-packages: /);
  });

  it.skipIf(isRoot)(
    'calls a site-packages without read permission unreadable (skipped as root: root reads it)',
    async () => {
      const { sitePackages } = writeEnvironment(join(dir.path, 'venv'), [
        { name: 'torch', version: '2.10.0' },
      ]);
      chmodSync(sitePackages, 0o000);
      try {
        const { code, report } = await check(sitePackages);
        expect(code).toBe(1);
        expect(report.findings.some((f) => f.title === 'Unreadable' && /EACCES/.test(f.detail))).toBe(true);
      } finally {
        chmodSync(sitePackages, 0o755);
      }
    },
  );
});
