import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { findProgram } from './helpers.js';

// Real podman, as Debian ships it, run as root without systemd: runc, cgroupfs, vfs storage, k8s-file logs,
// no network. Its configuration and storage live in the test's folder (CONTAINERS_CONF and
// CONTAINERS_STORAGE_CONF), so nothing is left in /var/lib/containers. The image is imported from a tar of
// a static busybox (Debian's busybox-static) and the scripts the test gives: nothing is downloaded.

const BUSYBOX = '/bin/busybox';

/** Why real podman cannot run here (what to install), or null when it can. */
export function podmanMissing(): string | null {
  const missing = [
    findProgram('podman') === null ? 'podman' : null,
    findProgram('runc') === null ? 'runc' : null,
    isStaticBusybox() ? null : 'busybox-static',
  ].filter((name) => name !== null);
  if (missing.length > 0) return `install Debian’s ${missing.join(', ')} to run it`;
  if (process.getuid?.() !== 0) return 'it runs podman as root: run the tests as root';
  return null;
}

function isStaticBusybox(): boolean {
  if (!existsSync(BUSYBOX)) return false;
  // A dynamic busybox would need a libc inside the image; ldd says "not a dynamic executable" for a static one.
  const ldd = spawnSync('ldd', [BUSYBOX], { encoding: 'utf8' });
  return `${ldd.stdout}${ldd.stderr}`.includes('not a dynamic executable');
}

export interface Podman {
  /** The environment that points podman at the test's configuration and storage. */
  env: Record<string, string>;
  /** Runs podman; throws with its stderr when it fails. */
  run(args: string[]): string;
}

/**
 * A podman configured in a folder of its own, with image `localhost/vigil-test:1` imported from busybox and
 * `files` (path in the image: its text; executable). When the test ends every container is removed, then
 * the folder (in that order: the storage goes only once nothing runs from it).
 */
export function preparePodman(files: Record<string, string>): Podman {
  // Under /tmp, not the test run's deeper TMPDIR: with its run folder there, paths under it passed
  // some length limit and podman's cleanup never ran when a container exited (no restart, no exit seen).
  const dir = mkdtempSync('/tmp/vigil-podman-');
  const conf = join(dir, 'containers.conf');
  const storage = join(dir, 'storage.conf');
  writeFileSync(
    conf,
    [
      '[containers]',
      // The sandbox this runs in may refuse raising limits; podman's default nofile/nproc would fail the start.
      'default_ulimits = []',
      'log_driver = "k8s-file"',
      '[engine]',
      'events_logger = "file"',
      'runtime = "runc"',
      'cgroup_manager = "cgroupfs"',
      '',
    ].join('\n'),
  );
  writeFileSync(
    storage,
    ['[storage]', 'driver = "vfs"', `graphroot = "${dir}/root"`, `runroot = "${dir}/run"`, ''].join('\n'),
  );
  const env = { CONTAINERS_CONF: conf, CONTAINERS_STORAGE_CONF: storage };
  const run = (args: string[]): string => {
    const result = spawnSync('podman', args, { env: { ...process.env, ...env }, encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(`podman ${args.join(' ')}: status ${result.status}: ${result.stderr.trim()}`);
    return result.stdout;
  };
  onTestFinished(async () => {
    spawnSync('podman', ['rm', '--all', '--force', '--time=0'], { env: { ...process.env, ...env } });
    // The cleanup podman runs as a container ends (conmon's exit command) may make its lock files again
    // just after: the folder is removed again once that has had time to run.
    for (let round = 0; round < 3; round += 1) {
      // ENOTEMPTY: that cleanup wrote into a folder while it was being removed; the next round takes it.
      try {
        rmSync(dir, { recursive: true, force: true });
      } catch {
        // removed again below
      }
      await new Promise((resolve) => setTimeout(resolve, 700));
    }
    rmSync(dir, { recursive: true, force: true });
  });
  const rootfs = join(dir, 'rootfs');
  mkdirSync(join(rootfs, 'bin'), { recursive: true });
  copyFileSync(BUSYBOX, join(rootfs, 'bin/busybox'));
  for (const applet of ['sh', 'cat', 'echo', 'sleep']) symlinkSync('busybox', join(rootfs, 'bin', applet));
  for (const [path, text] of Object.entries(files)) {
    const target = join(rootfs, path);
    mkdirSync(join(target, '..'), { recursive: true });
    writeFileSync(target, text);
    chmodSync(target, 0o755);
  }
  const tar = join(dir, 'image.tar');
  const packed = spawnSync('tar', ['-C', rootfs, '-cf', tar, '.']);
  if (packed.status !== 0) throw new Error(`tar: ${packed.stderr.toString()}`);
  run(['import', '--quiet', tar, 'localhost/vigil-test:1']);
  rmSync(rootfs, { recursive: true, force: true });
  return { env, run };
}
