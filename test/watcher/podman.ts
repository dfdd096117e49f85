import { spawn, spawnSync } from 'node:child_process';
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
import { findProgram, waitFor } from './helpers.js';

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
  /** The test's folder: configuration, storage, and room for a socket. */
  dir: string;
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
  return { dir, env, run };
}

/** Why the docker CLI cannot be tried against podman's Docker API here (what to install), or null. */
export function dockerMissing(): string | null {
  const podman = podmanMissing();
  if (podman !== null) return podman;
  return findProgram('docker') === null
    ? 'install Debian’s docker.io (the client; no dockerd is started) to run it'
    : null;
}

/**
 * `podman system service` on a socket in the test's folder: podman's Docker-compatible API, which the
 * docker CLI reaches through DOCKER_HOST. Ready once `docker version` gets the server's answer (a condition,
 * not a time); stopped when the test ends, before the containers are removed.
 */
export async function startDockerApi(podman: Podman): Promise<Record<string, string>> {
  const socket = join(podman.dir, 'docker.sock');
  const service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], {
    env: { ...process.env, ...podman.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  service.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const exited = new Promise<void>((resolve) => service.once('exit', () => resolve()));
  onTestFinished(async () => {
    if (service.exitCode === null && service.signalCode === null) service.kill('SIGTERM');
    await exited;
  });
  const env = { ...podman.env, DOCKER_HOST: `unix://${socket}` };
  const answers = (): boolean =>
    spawnSync('docker', ['version', '--format', '{{.Server.Version}}'], {
      env: { ...process.env, ...env },
    }).status === 0;
  await waitFor('podman system service to answer docker', () => {
    if (service.exitCode !== null) throw new Error(`podman system service ended: ${stderr.trim()}`);
    return answers();
  });
  return env;
}
