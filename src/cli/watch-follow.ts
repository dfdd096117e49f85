import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { ContainerRuntimeName } from '../sources/containers/index.js';
import { validateSelector } from '../sources/kubectl.js';
import { qualifyUnitName, validateKubeLabel, validateUnitName } from '../sources/validate-names.js';
import {
  followContainer,
  followPods,
  formatFailureReport,
  watchLog,
  watchUnit,
  type ReportFormat,
  type WatchEvent,
  type WatchOptions,
} from '../supervision/index.js';
import type { CommandRunner } from '../system/run-command.js';
import {
  IncidentStore,
  Watcher,
  alertmanagerReceiver,
  defaultStateDir,
  hookReceiver,
  parseListen,
  parseReceiverUrl,
  serveMetrics,
  slackReceiver,
  webhookReceiver,
  type Receiver,
} from '../watcher/index.js';
import type { ChosenContainers } from './container-flags.js';
import { wantsColor, type CliIo } from './io.js';
import { reportRenderer } from './render-report.js';
import { renderFailurePage } from './write-report-page.js';

export interface FollowFlags {
  units: string[];
  containers: ChosenContainers | null;
  kube?: string;
  /** --kube -l SELECTOR: every pod the selector names, as pods come and go. */
  selector?: string;
  namespace?: string;
  container?: string;
  logs: string[];
  stateDir?: string;
  webhook?: string;
  alertmanager?: string;
  slackWebhook?: string;
  onFailure?: string;
  hookTimeout: number;
  metricsListen?: string;
  redact: boolean;
  format: ReportFormat;
}

/**
 * One thing the watcher follows until stopped: a name for incidents and metrics, and how to follow it.
 * A target of many (a selector's pods) names each event's own subject; the others' events are its own.
 */
interface FollowTarget {
  name: string;
  /** onLive: the target's backlog is read, and what it logs from now on is reported as it comes. */
  follow(
    signal: AbortSignal,
    onEvent: (event: WatchEvent, subject?: string) => void,
    onLive: () => void,
  ): Promise<unknown>;
}

/**
 * `vigil watch --follow`: every target followed until SIGTERM or SIGINT, each failure reported and kept as
 * an incident, receivers told, /metrics served. Bad input (a URL, the state folder, the listen address)
 * is found before anything is followed: one line and exit 2.
 */
export async function followTargets(
  flags: FollowFlags,
  common: WatchOptions,
  runner: CommandRunner,
  io: CliIo,
): Promise<number> {
  const receivers = chooseReceivers(flags, io);
  const listen = flags.metricsListen === undefined ? null : parseListen(flags.metricsListen);
  const targets = chooseTargets(flags, common, runner, io);
  for (const file of flags.logs) {
    const path = resolve(io.cwd, file);
    await access(path, constants.R_OK).catch((error: unknown) => {
      throw new UsageError(`--log ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    });
  }
  const dir = flags.stateDir === undefined ? defaultStateDir(io.env) : resolve(io.cwd, flags.stateDir);
  if (dir === null) throw new UsageError('no state folder: set XDG_STATE_HOME or HOME, or give --state-dir');
  const store = new IncidentStore(dir);
  const state = await store.open();
  const log = (text: string): void => void io.stderr.write(`vigil: ${text}\n`);
  const watcher = new Watcher({
    store,
    state,
    receivers,
    redact: flags.redact,
    renderPage: (failure, startedAtMs) => renderFailurePage(failure, startedAtMs, flags.redact),
    log,
  });
  const metrics = listen === null ? null : await serveMetrics(listen, () => watcher.renderMetrics());
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const host = runner.host ?? hostname();
  await watcher.start();
  const color = wantsColor(io);
  const onEvent = (name: string, event: WatchEvent, subject = name): void => {
    if (event.type === 'failure') {
      io.stdout.write(
        formatFailureReport(event.failure, {
          format: flags.format,
          color,
          render: reportRenderer(flags.redact),
          subject,
          notes: [`start ${event.invocation.index} seen by this watcher`],
        }),
      );
    }
    watcher.onEvent(subject, host, event);
  };
  const following = targets.map((target) => {
    let live = (): void => undefined;
    const ready = new Promise<void>((resolve) => (live = resolve));
    const done = target
      .follow(controller.signal, (event, subject) => onEvent(target.name, event, subject), live)
      .catch((error: unknown) => {
        // One target that cannot be followed any more is a warning; the others go on.
        log(
          `warning: stopped following ${target.name}: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
    return { ready: Promise.race([ready, done]), done };
  });
  // Said once every target's backlog is read: a line written after it is followed, not history.
  void Promise.all(following.map((item) => item.ready)).then(() =>
    log(
      `following ${targets.map((target) => target.name).join(', ')} until stopped; incidents in ${dir}` +
        (metrics === null ? '' : `; metrics on http://${listen?.host}:${metrics.port}/metrics`),
    ),
  );
  try {
    await Promise.all(following.map((item) => item.done));
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    await watcher.close();
    await metrics?.close();
  }
  log(controller.signal.aborted ? 'stopped as asked; state saved' : 'every target ended; state saved');
  return 0;
}

function chooseReceivers(flags: FollowFlags, io: CliIo): Receiver[] {
  const receivers: Receiver[] = [];
  if (flags.webhook !== undefined)
    receivers.push(webhookReceiver(parseReceiverUrl(flags.webhook, '--webhook')));
  if (flags.alertmanager !== undefined)
    receivers.push(alertmanagerReceiver(parseReceiverUrl(flags.alertmanager, '--alertmanager')));
  if (flags.slackWebhook !== undefined)
    receivers.push(slackReceiver(parseReceiverUrl(flags.slackWebhook, '--slack-webhook')));
  if (flags.onFailure !== undefined) receivers.push(hookReceiver(flags.onFailure, io.env, flags.hookTimeout));
  return receivers;
}

function chooseTargets(
  flags: FollowFlags,
  common: WatchOptions,
  runner: CommandRunner,
  io: CliIo,
): FollowTarget[] {
  const targets: FollowTarget[] = [];
  for (const given of flags.units) {
    validateUnitName(given);
    const unit = qualifyUnitName(given);
    targets.push({
      name: unit,
      follow: (signal, onEvent, onLive) =>
        watchUnit({
          ...common,
          onLive,
          continuous: true,
          unit,
          env: io.env,
          runner,
          signal,
          follow: true,
          onEvent,
        }),
    });
  }
  if (flags.containers !== null) {
    const kind = flags.containers.runtime.name as ContainerRuntimeName;
    for (const container of flags.containers.names) {
      targets.push({
        name: `${kind}:${container}`,
        follow: (signal, onEvent, onLive) =>
          followContainer({
            ...common,
            onLive,
            target: { kind, container },
            env: io.env,
            runner,
            signal,
            onEvent,
          }),
      });
    }
  }
  if (flags.selector !== undefined) targets.push(podsTarget(flags, flags.selector, common, runner, io));
  if (flags.kube !== undefined) {
    const pod = flags.kube;
    targets.push({
      name: `kube:${flags.namespace === undefined ? '' : `${flags.namespace}/`}${pod}`,
      follow: (signal, onEvent, onLive) =>
        followContainer({
          ...common,
          onLive,
          target: { kind: 'kube', pod, namespace: flags.namespace, container: flags.container },
          env: io.env,
          runner,
          signal,
          onEvent,
        }),
    });
  }
  for (const file of flags.logs) {
    if (runner.host !== null)
      throw new UsageError('--log reads a file on this host; --ssh goes with --unit, --docker or --kube');
    const path = resolve(io.cwd, file);
    targets.push({
      name: `log:${path}`,
      follow: (signal, onEvent, onLive) => watchLog({ ...common, onLive, path, signal, onEvent }),
    });
  }
  if (targets.length === 0)
    throw new UsageError(
      'give what to follow: --unit NAME, --docker NAME, --kube POD, --kube -l SELECTOR or --log FILE',
    );
  return targets;
}

/** `--kube -l SELECTOR`: one target in the list, each pod its own subject (`kube:NS/POD`). */
function podsTarget(
  flags: FollowFlags,
  selector: string,
  common: WatchOptions,
  runner: CommandRunner,
  io: CliIo,
): FollowTarget {
  validateSelector(selector);
  if (flags.namespace !== undefined) validateKubeLabel('namespace', flags.namespace);
  if (flags.container !== undefined) validateKubeLabel('container', flags.container);
  const scope = flags.namespace === undefined ? '' : `${flags.namespace}/`;
  const name = `kube:${scope}-l ${selector}`;
  return {
    name,
    follow: (signal, onEvent, onLive) =>
      followPods({
        ...common,
        onLive,
        query: {
          selector,
          ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
          ...(flags.container === undefined ? {} : { container: flags.container }),
        },
        env: io.env,
        runner,
        signal,
        onPodEvent: (pod, event) =>
          onEvent(
            event,
            pod === null ? name : `kube:${pod.namespace === null ? '' : `${pod.namespace}/`}${pod.name}`,
          ),
      }),
  };
}
