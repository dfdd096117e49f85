import { UsageError } from '../errors.js';
import { formatExecLine, unitValue, userValue, validateServiceName } from './unit-file.js';

export interface WatcherUnitOptions {
  /** The unit's name without `.service`; also its StateDirectory under /var/lib. */
  name: string;
  /** The command that runs vigil (node and its script, or the standalone binary). */
  vigil: readonly string[];
  /** `vigil watch --follow`'s own arguments: the targets and the receivers. */
  watchArgs: readonly string[];
  user?: string;
  description?: string;
}

/** Flags the unit sets itself: given again, they would fight the hardening. */
const OWN_FLAGS = ['--state-dir', '--follow', '--no-follow'];

/**
 * `vigil unit --watcher`: a systemd unit for the long watch itself, hardened (the file system read-only
 * but for its state folder, no new privileges, no kernel tunables), restarted if it dies, stopped with
 * SIGTERM (the watcher saves its state and exits 0). It reads the journal through the systemd-journal
 * group when it runs as a user.
 */
export function renderWatcherUnit(options: WatcherUnitOptions): string {
  const name = validateServiceName(options.name);
  for (const arg of options.watchArgs) {
    const flag = arg.split('=')[0] ?? arg;
    if (OWN_FLAGS.includes(flag))
      throw new UsageError(`vigil unit --watcher sets ${flag} itself; leave it out of the watch arguments`);
  }
  const stateDir = `/var/lib/${name}`;
  const exec = formatExecLine(options.vigil[0] ?? 'vigil', [
    ...options.vigil.slice(1),
    'watch',
    '--follow',
    '--state-dir',
    `${stateDir}/incidents`,
    ...options.watchArgs,
  ]);
  const lines = [
    '[Unit]',
    `Description=${unitValue('--description', options.description ?? `Vigil watcher (${name})`)}`,
    'Documentation=https://github.com/vigil-llm/vigil#readme',
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=exec',
    `ExecStart=${exec}`,
    ...(options.user === undefined
      ? []
      : [`User=${userValue(options.user)}`, 'SupplementaryGroups=systemd-journal']),
    `StateDirectory=${name}`,
    `ReadWritePaths=${stateDir}`,
    'Restart=on-failure',
    'RestartSec=10s',
    'KillSignal=SIGTERM',
    'TimeoutStopSec=20s',
    'NoNewPrivileges=yes',
    'ProtectSystem=strict',
    'ProtectHome=read-only',
    'PrivateTmp=yes',
    'PrivateDevices=yes',
    'ProtectKernelTunables=yes',
    'ProtectKernelModules=yes',
    'ProtectKernelLogs=yes',
    'ProtectControlGroups=yes',
    'ProtectClock=yes',
    'ProtectHostname=yes',
    'RestrictSUIDSGID=yes',
    'RestrictRealtime=yes',
    'RestrictNamespaces=yes',
    'LockPersonality=yes',
    'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6',
    'SystemCallArchitectures=native',
    '',
    '[Install]',
    'WantedBy=multi-user.target',
    '',
  ];
  return lines.join('\n');
}
