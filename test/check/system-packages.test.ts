import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runVigil } from './helpers/run-cli.js';

// Debian's python3-cryptography ships a .dist-info and an .egg-info in one folder, both dpkg's.
const DEBIAN_PAIR = [
  '/usr/lib/python3/dist-packages/cryptography.egg-info',
  '/usr/bin/python3',
  '/var/lib/dpkg/status',
];
const present = DEBIAN_PAIR.every((path) => existsSync(path));
if (!present) {
  console.warn(
    'skipping the Debian system-python test: needs /usr/bin/python3 and python3-cryptography (apt-get install python3-cryptography)',
  );
}

describe.skipIf(!present)('vigil check --python /usr/bin/python3 on Debian', () => {
  it('does not call dpkg-owned metadata a duplicate, and no fix deletes a system folder', async () => {
    const run = await runVigil(['check', '--python', '/usr/bin/python3', '--format', 'json']);
    const report = JSON.parse(run.stdout) as {
      findings: { id: string; fix: string | null; detail: string }[];
    };
    expect(
      report.findings.filter(
        (finding) => finding.id === 'duplicate-distribution' && /cryptography/.test(finding.detail),
      ),
    ).toEqual([]);
    for (const finding of report.findings) {
      expect(finding.fix ?? '', finding.id).not.toMatch(/remove[^(]*\/usr\/lib\/python3/);
    }
  });
});
