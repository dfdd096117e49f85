import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeEnvironment } from '../check/helpers/write-environment.js';
import { AS_ROOT, OTHER_UID, expectRefused, runBin, tempDir } from './helpers.js';

// Issue 31, item 2: Vigil runs as root beside a server user who owns its log folder. Every file it writes at
// a path a user named must not be reached through a link that user planted: not the file itself (a link
// to /root/.ssh/authorized_keys), nor a folder on the way (a folder swapped for a link to /etc/cron.d).

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIattacker attacker@evil';
const VICTIM_TEXT = 'root-only content\n';
/** A server that prints the attacker's key and fails. */
const SERVER = [process.execPath, '-e', `console.log(${JSON.stringify(KEY)}); process.exit(1)`];

/** A victim file and folder that root owns, which the attack tries to reach. */
function victim(dir: string): { file: string; folder: string } {
  const folder = join(dir, 'root-only');
  mkdirSync(folder, { mode: 0o700 });
  const file = join(folder, 'authorized_keys');
  writeFileSync(file, VICTIM_TEXT, { mode: 0o600 });
  return { file, folder };
}

/** A link planted by the other user where the tests run as root, by this user elsewhere. */
function plantLink(target: string, path: string): void {
  symlinkSync(target, path);
  if (AS_ROOT) lchownSync(path, OTHER_UID, OTHER_UID);
}

/** A folder anyone can write (no sticky bit): any local user could have swapped what is in it. */
function sharedFolder(dir: string): string {
  const shared = join(dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o777);
  return shared;
}

function run(flags: string[], dir: string) {
  return runBin(['run', '--no-preflight', '--no-history', '--quiet', ...flags, '--', ...SERVER], {
    env: { HOME: dir, XDG_STATE_HOME: join(dir, 'state') },
  });
}

describe('run --log never appends through a planted link', () => {
  it('refuses a link at the log path: the key never reaches the victim', async () => {
    const dir = tempDir();
    const { file } = victim(dir);
    const log = join(dir, 'server.log');
    plantLink(file, log);
    const result = await run(['--log', log], dir);
    expectRefused(result, /--log .*server\.log is a link/);
    expect(readFileSync(file, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('refuses a folder on the way swapped for a link in a folder others can write', async () => {
    const dir = tempDir();
    const { folder } = victim(dir);
    const shared = sharedFolder(dir);
    plantLink(folder, join(shared, 'logs'));
    const result = await run(['--log', join(shared, 'logs', 'server.log')], dir);
    expectRefused(result, /--log .* refused: .*shared can be written by other users/);
    expect(existsSync(join(folder, 'server.log'))).toBe(false);
  });

  it.skipIf(!AS_ROOT)('as root, refuses a folder on the way that another user owns', async () => {
    const dir = tempDir();
    const { folder } = victim(dir);
    const home = join(dir, 'svc');
    mkdirSync(home, { mode: 0o755 });
    chownSync(home, OTHER_UID, OTHER_UID);
    plantLink(folder, join(home, 'logs'));
    const result = await run(['--log', join(home, 'logs', 'server.log')], dir);
    expectRefused(result, /--log .* refused: .*svc is owned by uid 65534/);
    expect(existsSync(join(folder, 'server.log'))).toBe(false);
  });

  it.skipIf(!AS_ROOT)('as root, refuses a log file another user owns', async () => {
    const dir = tempDir();
    const log = join(dir, 'server.log');
    writeFileSync(log, '');
    chownSync(log, OTHER_UID, OTHER_UID);
    const result = await run(['--log', log], dir);
    expectRefused(result, /--log .*server\.log is owned by uid 65534/);
    expect(readFileSync(log, 'utf8')).toBe('');
  });

  it('refuses a hard link to another file', async () => {
    const dir = tempDir();
    const { file } = victim(dir);
    const log = join(dir, 'server.log');
    linkSync(file, log);
    const result = await run(['--log', log], dir);
    expectRefused(result, /--log .*server\.log has 2 names \(hard links\)/);
    expect(readFileSync(file, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('still appends to a plain file in a folder of its own', async () => {
    const dir = tempDir();
    const log = join(dir, 'server.log');
    writeFileSync(log, 'before\n');
    const result = await run(['--log', log], dir);
    expect(result.code).toBe(1);
    expect(readFileSync(log, 'utf8')).toBe(`before\n${KEY}\n`);
  });
});

describe('run --termination-log never writes through a planted link', () => {
  it('replaces a link at the path with its own file: the victim is untouched', async () => {
    const dir = tempDir();
    const { file } = victim(dir);
    const termination = join(dir, 'termination-log');
    plantLink(file, termination);
    const result = await run(['--termination-log', termination], dir);
    expect(result.code).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(VICTIM_TEXT);
    expect(lstatSync(termination).isFile()).toBe(true);
    expect(readFileSync(termination, 'utf8')).toMatch(/the server failed to start/);
  });

  it('refuses a swapped folder before the server starts', async () => {
    const dir = tempDir();
    const { folder } = victim(dir);
    const shared = sharedFolder(dir);
    plantLink(folder, join(shared, 'k8s'));
    const marker = join(dir, 'server-ran');
    const result = await runBin(
      [
        'run',
        '--no-preflight',
        '--no-history',
        '--termination-log',
        join(shared, 'k8s', 'termination-log'),
        '--',
        process.execPath,
        '-e',
        `require('node:fs').writeFileSync(${JSON.stringify(marker)}, ''); process.exit(1)`,
      ],
      { env: { HOME: dir } },
    );
    expectRefused(result, /--termination-log .* refused: .*can be written by other users/);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(folder, 'termination-log'))).toBe(false);
  });

  it('refuses --metrics-file and --report through a swapped folder too', async () => {
    const dir = tempDir();
    const { folder } = victim(dir);
    const shared = sharedFolder(dir);
    plantLink(folder, join(shared, 'out'));
    for (const flag of ['--metrics-file', '--report']) {
      const result = await run([flag, join(shared, 'out', 'file')], dir);
      expectRefused(result, new RegExp(`${flag} .* refused: `));
    }
    expect(existsSync(join(folder, 'file'))).toBe(false);
  });
});

describe('check --termination-log never writes through a planted link', () => {
  const incident = [
    { name: 'vllm', version: '0.16.0', requires: ['flashinfer-python==0.6.4'] },
    { name: 'flashinfer-python', version: '0.6.4' },
    { name: 'flashinfer-cubin', version: '0.6.3' },
  ];

  function check(dir: string, termination: string) {
    const site = writeEnvironment(join(dir, 'env'), incident).sitePackages;
    return runBin(['check', '--site-packages', site, '--termination-log', termination], {
      env: { HOME: dir, PATH: '/nonexistent' },
    });
  }

  it('replaces a link at the path with its own file: the victim is untouched', async () => {
    const dir = tempDir();
    const { file } = victim(dir);
    const termination = join(dir, 'termination-log');
    plantLink(file, termination);
    const result = await check(dir, termination);
    expect(result.code).toBe(1);
    expect(readFileSync(file, 'utf8')).toBe(VICTIM_TEXT);
    expect(readFileSync(termination, 'utf8')).toMatch(/^flashinfer-version-mismatch: /);
  });

  it('refuses a swapped folder with one line', async () => {
    const dir = tempDir();
    const { folder } = victim(dir);
    const shared = sharedFolder(dir);
    plantLink(folder, join(shared, 'k8s'));
    const result = await check(dir, join(shared, 'k8s', 'termination-log'));
    expect(result.stderr).toMatch(/--termination-log .* refused: /);
    expect(result.code).toBe(2);
    expect(existsSync(join(folder, 'termination-log'))).toBe(false);
  });

  it('writes a regular file in place where it cannot be renamed over (a bind mount, as Kubernetes mounts it)', async (context) => {
    if (!AS_ROOT) return context.skip();
    const dir = tempDir();
    const termination = join(dir, 'termination-log');
    writeFileSync(termination, '');
    const mounted = spawnSync('mount', ['--bind', termination, termination]);
    if (mounted.status !== 0) return context.skip();
    try {
      const result = await check(dir, termination);
      expect(result.code).toBe(1);
      expect(readFileSync(termination, 'utf8')).toMatch(/^flashinfer-version-mismatch: /);
    } finally {
      spawnSync('umount', [termination]);
    }
  });
});
