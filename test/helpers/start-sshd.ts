import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * A real sshd on 127.0.0.1 for the --ssh tests: throwaway host and user keys in a temp folder, its own
 * authorized_keys and an ssh config with the alias `vigil-test`, so nothing of the machine's ssh set-up is
 * read or changed. Needs openssh-server and openssh-client, and root (sshd checks who may log in).
 */
export interface TestSshd {
  /** The ssh config to pass with --ssh-config; it defines the host alias `vigil-test`. */
  config: string;
  alias: string;
  port: number;
  dir: string;
  /** The host key's known_hosts line, to write a changed or missing one in a test. */
  hostKeyLine: string;
  stop(): Promise<void>;
}

export const SSHD = ['/usr/sbin/sshd', '/usr/bin/sshd'].find((path) => existsSync(path));
const SSH_KEYGEN = ['/usr/bin/ssh-keygen'].find((path) => existsSync(path));
const SSH = ['/usr/bin/ssh'].find((path) => existsSync(path));

/** Why the sshd tests cannot run here, or null when they can. */
export function sshdMissing(): string | null {
  if (SSHD === undefined) return 'install openssh-server (sshd) to run the --ssh tests';
  if (SSH === undefined || SSH_KEYGEN === undefined) return 'install openssh-client to run the --ssh tests';
  if (process.getuid?.() !== 0) return 'the --ssh tests start sshd and need root';
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

function keygen(path: string): void {
  const result = spawnSync(SSH_KEYGEN ?? 'ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path]);
  if (result.status !== 0) throw new Error(`ssh-keygen failed: ${result.stderr.toString()}`);
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`sshd exited: ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`sshd did not listen on ${port}: ${log()}`);
}

/**
 * `setEnv`: variables sshd sets for every session (its SetEnv), e.g. where a test's podman keeps its
 * configuration: ssh passes none of the client's environment.
 */
export async function startSshd(options: { setEnv?: Record<string, string> } = {}): Promise<TestSshd> {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-sshd-'));
  keygen(join(dir, 'host_key'));
  keygen(join(dir, 'user_key'));
  await writeFile(join(dir, 'authorized_keys'), await readFile(join(dir, 'user_key.pub')));
  const port = await freePort();
  const user = userInfo().username;
  // sshd refuses to start without its privilege-separation folder; Debian's package makes it at boot.
  if (!existsSync('/run/sshd')) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  await writeFile(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      // The temp folder is world-readable /tmp; the keys in it are throwaway.
      'StrictModes no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      'PermitRootLogin prohibit-password',
      `AllowUsers ${user}`,
      'LogLevel ERROR',
      // One SetEnv line for all: sshd keeps the first line of a keyword.
      ...(options.setEnv === undefined
        ? []
        : [
            `SetEnv ${Object.entries(options.setEnv)
              .map(([name, value]) => `${name}=${value}`)
              .join(' ')}`,
          ]),
      '',
    ].join('\n'),
  );
  const hostKeyLine = `[127.0.0.1]:${port} ${(await readFile(join(dir, 'host_key.pub'), 'utf8')).trim()}`;
  await writeFile(join(dir, 'known_hosts'), `${hostKeyLine}\n`);
  const config = join(dir, 'ssh_config');
  await writeFile(
    config,
    [
      // Two names for the one host: a fleet of two hosts in the --ssh fleet tests.
      'Host vigil-test vigil-test-2',
      '  HostName 127.0.0.1',
      `  Port ${port}`,
      `  User ${user}`,
      `  IdentityFile ${join(dir, 'user_key')}`,
      '  IdentitiesOnly yes',
      `  UserKnownHostsFile ${join(dir, 'known_hosts')}`,
      '  StrictHostKeyChecking yes',
      '  LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const child = spawn(SSHD ?? 'sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  await waitForPort(port, child, () => log);
  return {
    config,
    alias: 'vigil-test',
    port,
    dir,
    hostKeyLine,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
