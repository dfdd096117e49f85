import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRET_SAMPLES } from '../helpers/secret-samples.js';
import { runVigil, tempDir, writeFiles } from './cli-harness.js';

// Issue 15, item 5: every family, in every format, in every command's output.
const FORMATS = ['text', 'markdown', 'json'] as const;

function crashLog(text: string): string {
  return [
    'INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.11.0',
    `INFO 01-01 00:00:01 [api_server.py:2] using ${text}`,
    'Traceback (most recent call last):',
    '  File "/opt/venv/lib/python3.12/site-packages/vllm/engine.py", line 10, in start',
    '    raise RuntimeError(msg)',
    `RuntimeError: upstream refused ${text}`,
    '',
  ].join('\n');
}

describe.each(FORMATS)('diagnose --format %s', (format) => {
  it.each(SECRET_SAMPLES.map((sample) => [sample.family, sample] as const))('%s', async (_family, sample) => {
    const dir = await writeFiles({ 'server.log': crashLog(sample.text) });
    const args = ['diagnose', join(dir, 'server.log'), '--format', format];
    const plain = await runVigil([...args, '--no-redact']);
    const redacted = await runVigil(args);
    expect(redacted.code).toBe(1);
    if (format === 'json')
      expect(plain.stdout, 'the secret reaches the report unredacted').toContain(sample.secret);
    expect(redacted.stdout + redacted.stderr).not.toContain(sample.secret);
  });
});

describe('run', () => {
  const all = SECRET_SAMPLES.map((sample) => sample.text).join(' ');
  const traceback = `console.error(${JSON.stringify(crashLog(all))}); process.exit(1);`;
  const noTraceback = `console.log(${JSON.stringify(`non-default args: ${all}`)}); process.exit(3);`;

  it.each(FORMATS)('crash report --format %s', async (format) => {
    const args = ['run', '--no-preflight', '--no-history', '--quiet', '--format', format, '--'];
    const plain = await runVigil(['run', '--no-redact', ...args.slice(1), process.execPath, '-e', traceback]);
    const redacted = await runVigil([...args, process.execPath, '-e', traceback]);
    expect(redacted.code).toBe(1);
    const leaked = SECRET_SAMPLES.filter((sample) => redacted.stdout.includes(sample.secret));
    expect(leaked.map((sample) => sample.family)).toEqual([]);
    expect(SECRET_SAMPLES.some((sample) => plain.stdout.includes(sample.secret))).toBe(true);
  });

  it.each(['text', 'markdown'] as const)('the last lines the server printed, --format %s', async (format) => {
    const args = ['run', '--no-preflight', '--no-history', '--quiet', '--format', format, '--'];
    const plain = await runVigil([
      'run',
      '--no-redact',
      ...args.slice(1),
      process.execPath,
      '-e',
      noTraceback,
    ]);
    const redacted = await runVigil([...args, process.execPath, '-e', noTraceback]);
    expect(redacted.code).toBe(3);
    for (const sample of SECRET_SAMPLES) {
      expect(plain.stdout, sample.family).toContain(sample.secret);
      expect(redacted.stdout, sample.family).not.toContain(sample.secret);
    }
  });
});

describe('error messages', () => {
  it.each(SECRET_SAMPLES.map((sample) => [sample.family, sample] as const))('%s', async (_family, sample) => {
    const result = await runVigil([
      'diagnose',
      `/nonexistent/server ${sample.text.replaceAll('\n', ' ')} .log`,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain(sample.secret);
  });
});

describe('snapshot, diff and check', () => {
  const credentialUrls = [
    ['https://oauth2:glpat-Xy9zAb3dEf6hIj9kLm0p@gitlab.example.com/org/repo.git', 'Xy9zAb3dEf6hIj9kLm0p'],
    [
      'https://ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789@github.com/org/repo.git',
      'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
    ],
    ['https://bob:hunter2pass@git.example.com/repo.git', 'hunter2pass'],
  ] as const;

  async function siteWithSource(url: string): Promise<string> {
    const dir = await tempDir();
    const site = join(dir, 'site-packages');
    const info = join(site, 'mypkg-1.0.dist-info');
    await mkdir(info, { recursive: true });
    await writeFile(join(info, 'METADATA'), 'Metadata-Version: 2.1\nName: mypkg\nVersion: 1.0\n');
    await writeFile(
      join(info, 'direct_url.json'),
      JSON.stringify({
        url,
        vcs_info: { vcs: 'git', commit_id: '0123456789abcdef0123456789abcdef01234567' },
      }),
    );
    return site;
  }

  it.each(credentialUrls)('snapshot prints no git credentials from %s', async (url, secret) => {
    const site = await siteWithSource(url);
    const snapshot = await runVigil(['snapshot', '--site-packages', site], { env: { PATH: '/nonexistent' } });
    expect(snapshot.code).toBe(0);
    expect(snapshot.stdout).toContain('git+https://');
    expect(snapshot.stdout).toContain('@0123456789abcdef0123456789abcdef01234567');
    expect(snapshot.stdout).not.toContain(secret);
    const dir = await writeFiles({
      'a.json': snapshot.stdout,
      'b.json': snapshot.stdout.replace('"1.0"', '"1.1"'),
    });
    for (const format of FORMATS) {
      const diff = await runVigil(['diff', join(dir, 'a.json'), join(dir, 'b.json'), '--format', format]);
      expect(diff.stdout).toContain('mypkg');
      expect(diff.stdout).not.toContain(secret);
      const check = await runVigil(['check', '--site-packages', site, '--format', format], {
        env: { PATH: '/nonexistent' },
      });
      expect(check.stdout + check.stderr).not.toContain(secret);
    }
  });
});
