import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { createDiagnosisSession } from '../../diagnosis/index.js';
import { UsageError } from '../../errors.js';
import { redactLines } from '../../redaction/index.js';
import { loadSignatures } from '../../rules/load-user-signatures.js';
import { aimFixThere, placeOf } from '../aim-fix-at.js';
import { formatDuration } from '../../progress/index.js';
import { reportRenderer } from '../render-report.js';
import { qualifyUnitName, validateUnitName } from '../../sources/validate-names.js';
import {
  createProgressDisplay,
  describeStall,
  downloadFolder,
  formatFailureReport,
  parseDuration,
  parseHealthUrl,
  renderWatcherManifest,
  watchContainer,
  watchUnit,
  type ReportFormat,
  type WatchEvent,
  type WatchOptions,
} from '../../supervision/index.js';
import { ENGINES, type Engine } from '../../types/diagnosis.js';
import type { ContainerRuntimeName } from '../../sources/containers/index.js';
import { findSourceOwner, type SourceSpec } from '../../sources/index.js';
import { addContainerOptions, chosenContainers } from '../container-flags.js';
import { writeReportPage } from '../write-report-page.js';
import { collectValues } from '../collect-values.js';
import { followTargets } from '../watch-follow.js';
import { parseReceiverUrl } from '../../watcher/index.js';
import { terminalWidth, wantsColor, type CliIo } from '../io.js';
import { addTransportOptions, chooseRunner } from '../transport-flags.js';
import type { SetExit } from './index.js';
import { COMMAND_SUMMARIES } from './summaries.js';

interface WatchFlags {
  redact: boolean;
  report?: string;
  unit?: string[];
  kube?: string;
  /** With --follow --kube (no pod): every pod these labels name. */
  selector?: string;
  namespace?: string;
  container?: string;
  journalFile: string[];
  journalDir?: string;
  since?: string;
  /** true: --follow (until stopped); false: --no-follow; undefined: to the first verdict. */
  follow?: boolean;
  log?: string[];
  stateDir?: string;
  webhook?: string;
  alertmanager?: string;
  slackWebhook?: string;
  onFailure?: string;
  onFailureTimeout: string;
  metricsListen?: string;
  printManifest?: boolean;
  image?: string;
  health?: string;
  healthInterval: string;
  timeout?: string;
  fatalGrace: string;
  stopOnCrash?: boolean;
  engine?: Engine;
  format: ReportFormat;
  stallAfter?: string;
  stallTimeout?: string;
  rules?: string[];
  model?: string;
}

export function registerWatch(program: Command, io: CliIo, setExit: SetExit): void {
  const command = program.command('watch');
  addTransportOptions(command, { hosts: false });
  command
    .description(COMMAND_SUMMARIES.watch.description)
    .option(
      '--unit <name>',
      'a systemd unit, followed through journalctl from its current invocation (repeatable with --follow)',
      collectValues,
    );
  addContainerOptions(command, { many: false });
  command
    .option('--kube [pod]', 'a Kubernetes pod, followed through kubectl logs')
    .option(
      '-l, --selector <selector>',
      'with --follow --kube: every pod with these labels, as pods come and go (e.g. app=vllm)',
    )
    .option('-n, --namespace <ns>', 'with --kube: the pod’s namespace')
    .option('--container <name>', 'with --kube: the container in the pod')
    .option(
      '--journal-file <path>',
      'with --unit: read this journal file instead of the system journal (repeatable)',
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .option('--journal-dir <dir>', 'with --unit: read this journal folder instead of the system journal')
    .option('--since <time>', 'with --unit: read the journal from this time (journalctl --since)')
    .option('--no-redact', 'show tokens and passwords in the report as they are in the log')
    // --follow before --no-follow: so declared, neither given leaves `follow` undefined (the first verdict).
    .option(
      '--follow',
      'keep watching until stopped (SIGTERM): every start and failure, kept as incidents, receivers told',
    )
    .option('--no-follow', 'decide on what the log holds now and stop')
    .option(
      '--log <file>',
      'with --follow: a server log file, followed across rotation (repeatable)',
      collectValues,
    )
    .option(
      '--state-dir <dir>',
      'with --follow: where incidents are kept (default $XDG_STATE_HOME/vigil/incidents)',
    )
    .option('--webhook <url>', 'with --follow: POST each incident as JSON (schema vigil.incident.v1)')
    .option('--alertmanager <url>', 'with --follow: post alerts to this Alertmanager (its /api/v2/alerts)')
    .option('--slack-webhook <url>', 'with --follow: post each incident to this Slack incoming webhook')
    .option(
      '--on-failure <cmd>',
      'with --follow: run CMD (no shell) for each new incident, its JSON on stdin',
    )
    .option('--on-failure-timeout <duration>', 'how long --on-failure may run', '30s')
    .option('--metrics-listen <host:port>', 'with --follow: serve Prometheus metrics on /metrics')
    .option(
      '--print-manifest',
      'with --kube POD -n NS --image IMAGE: print a Deployment, ServiceAccount and Role that run this watch',
    )
    .option('--image <image>', 'with --print-manifest: an image that holds vigil and kubectl')
    .option('--report <file>', 'on failure, also write the diagnosis as one self-contained HTML page')
    .option('--health <url>', 'ready when this URL answers 2xx (default: the log’s own ready line)')
    .option('--health-interval <duration>', 'how often to ask the health URL', '2s')
    .option('--timeout <duration>', 'fail a start that is not ready this long after it began')
    .option(
      '--fatal-grace <duration>',
      'how long a start that logged a fatal error may go on before it counts as hung',
      '15s',
    )
    .option(
      '--stall-after <duration>',
      'warn when a phase goes this long without progress (default: the engine’s bound for it)',
    )
    .option('--stall-timeout <duration>', 'count a start in which nothing advanced this long as failed')
    .option(
      '--model <id>',
      'the Hugging Face model it loads: its download in this host’s cache counts as progress',
    )
    .option(
      '--rules <dir>',
      'extra signature files, YAML or JSON (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--stop-on-crash',
      'with --unit: systemctl stop the unit after a failed start, to keep its logs as they are',
    )
    .addOption(new Option('--engine <name>', 'the engine, when the log does not show it').choices(ENGINES))
    .addOption(
      new Option('--format <format>', 'failure report format')
        .choices(['text', 'json', 'markdown'])
        .default('text'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  vigil watch --unit vllm-kimi-k25 --stop-on-crash\n  vigil watch --kube vllm-0 -n llm --timeout 20m\n' +
        '  vigil watch --follow --unit vllm --alertmanager http://127.0.0.1:9093 --metrics-listen 127.0.0.1:9464\n\n' +
        'Exit status: 0 once the server is ready, 1 on a failed start, 2 for a usage or input error;\n' +
        'with --follow: 0 when stopped (SIGTERM, SIGINT), 2 for a usage or input error.\n',
    )
    .action(async (flags: GivenWatchFlags) => {
      setExit(await watch(kubeFlags(flags), io));
    });
}

/** As commander gives them: `--kube` without a pod is true. */
type GivenWatchFlags = Omit<WatchFlags, 'kube'> & { kube?: string | true };

/** `--kube POD`, or `--kube -l SELECTOR` (with --follow only: pods come and go while it follows). */
function kubeFlags(given: GivenWatchFlags): WatchFlags {
  if (given.kube === true && given.selector === undefined)
    throw new UsageError('--kube needs a POD, or -l SELECTOR with --follow');
  if (
    given.selector !== undefined &&
    (given.kube !== true || (given.follow !== true && given.printManifest !== true))
  )
    throw new UsageError('-l SELECTOR goes with --follow (or --print-manifest) --kube and no POD');
  return { ...given, kube: given.kube === true ? undefined : given.kube };
}

async function watch(flags: WatchFlags, io: CliIo): Promise<number> {
  const containers = chosenContainers(flags);
  if (flags.printManifest === true) return printManifest(flags, io);
  if (flags.follow === true) return followWatch(flags, containers, io);
  const followOnly = [flags.log, flags.stateDir, flags.webhook, flags.alertmanager, flags.slackWebhook]
    .concat([flags.onFailure, flags.metricsListen])
    .some((value) => value !== undefined);
  if (followOnly)
    throw new UsageError(
      '--log, --state-dir, --webhook, --alertmanager, --slack-webhook, --on-failure and --metrics-listen go with --follow',
    );
  if ((flags.unit?.length ?? 0) > 1) throw new UsageError('give --unit once, or several with --follow');
  const unit = flags.unit?.[0];
  const targets = [unit, containers, flags.kube].filter((value) => value != null);
  if (targets.length !== 1) throw new UsageError('give one of --unit NAME, --docker NAME or --kube POD');
  if (
    unit === undefined &&
    (flags.journalFile.length > 0 || flags.journalDir !== undefined || flags.stopOnCrash)
  ) {
    throw new UsageError('--journal-file, --journal-dir and --stop-on-crash go with --unit');
  }
  const runner = chooseRunner(flags, io);
  // Paths name the other host's files there: only local ones are made absolute here.
  const path = (file: string): string => (runner.host === null ? resolve(io.cwd, file) : file);
  const color = wantsColor(io);
  const display = createProgressDisplay({
    out: io.stderr,
    redraw: io.stderr.isTTY === true && io.env.TERM !== 'dumb',
    history: [],
  });
  const subject = unit ?? containers?.names[0] ?? flags.kube ?? 'the server';
  const spec: SourceSpec | null =
    containers === null
      ? flags.kube === undefined
        ? null
        : {
            kind: 'kube',
            pod: flags.kube,
            ...(flags.namespace === undefined ? {} : { namespace: flags.namespace }),
          }
      : { kind: containers.runtime.name as ContainerRuntimeName, container: containers.names[0] ?? '' };
  // What a fix rebuilds or restarts (the compose service, the pod's workload), looked up once at the start.
  const owned = spec === null ? {} : await findSourceOwner(spec, runner, io.env);
  const place = placeOf(spec, runner.host, owned);
  const pending: Promise<void>[] = [];
  const showEvent = async (event: WatchEvent): Promise<void> => {
    switch (event.type) {
      case 'note':
        display.say(`vigil: ${event.text}`);
        break;
      case 'progress':
        display.update(event.state, event.elapsedMs);
        break;
      case 'stalled':
        display.say(`vigil: warning: ${subject} ${describeStall(event.stall)}`);
        break;
      case 'ready':
        display.say(`vigil: ${subject} is ready after ${formatDuration(event.elapsedMs)}`);
        display.close();
        break;
      case 'failure': {
        display.close();
        // The same fix as `vigil diagnose` prints for this unit, container or pod, on this host or --ssh's.
        const diagnosis = await aimFixThere(event.failure.diagnosis, place, runner, io.env);
        const failure = { ...event.failure, diagnosis };
        const notes = [
          `start ${event.invocation.index} seen${event.invocation.id === undefined ? '' : ` (invocation ${event.invocation.id})`}; only its lines were diagnosed`,
        ];
        if (event.restartLoop) notes.push(`restart loop: ${event.failedStarts} failed starts in a row`);
        io.stdout.write(
          formatFailureReport(failure, {
            format: flags.format,
            color,
            render: reportRenderer(flags.redact, terminalWidth(io)),
            redactLines: flags.redact ? redactLines : undefined,
            subject,
            notes,
          }),
        );
        if (flags.report !== undefined) {
          // The start began ranMs before the failure was seen.
          const startedAtMs = Date.now() - failure.ranMs;
          pending.push(
            writeReportPage(resolve(io.cwd, flags.report), failure, startedAtMs, flags.redact, io),
          );
        }
        break;
      }
    }
  };
  // A failure's fix may first read the environment over --ssh: each event is shown after the one before.
  let shown: Promise<void> = Promise.resolve();
  const onEvent = (event: WatchEvent): void => {
    shown = shown.then(() => showEvent(event));
  };
  const { signatures, warnings: ruleWarnings } = await loadSignatures({
    rulesDirs: flags.rules ?? [],
    env: io.env,
  });
  // A broken or duplicate rule is said, and the start goes on with the other rules.
  for (const warning of ruleWarnings) io.stderr.write(`vigil: warning: ${warning}\n`);
  const common = watchOptions(flags, signatures, onEvent, io);
  try {
    if (unit !== undefined) {
      validateUnitName(unit);
      const result = await watchUnit({
        ...common,
        unit: qualifyUnitName(unit),
        env: io.env,
        journalFiles: flags.journalFile.map(path),
        journalDirectory: flags.journalDir === undefined ? undefined : path(flags.journalDir),
        runner,
        since: flags.since,
        follow: flags.follow,
        stopOnCrash: flags.stopOnCrash === true,
      });
      return result.exitCode;
    }
    const target =
      containers !== null
        ? {
            kind: containers.runtime.name as ContainerRuntimeName,
            container: containers.names[0] ?? '',
          }
        : ({
            kind: 'kube',
            pod: flags.kube ?? '',
            namespace: flags.namespace,
            container: flags.container,
          } as const);
    const result = await watchContainer({ ...common, target, env: io.env, follow: flags.follow, runner });
    return result.exitCode;
  } finally {
    await shown;
    display.close();
    await Promise.all(pending);
  }
}

/** What every watch shares, from the flags: the engine, the probes, the bounds, the diagnosis. */
function watchOptions(
  flags: WatchFlags,
  signatures: Awaited<ReturnType<typeof loadSignatures>>['signatures'],
  onEvent: (event: WatchEvent) => void,
  io: CliIo,
): WatchOptions {
  return {
    engine: flags.engine ?? null,
    healthUrl: flags.health === undefined ? null : parseHealthUrl(flags.health),
    healthIntervalMs: parseDuration(flags.healthInterval, '--health-interval'),
    timeoutMs: flags.timeout === undefined ? null : parseDuration(flags.timeout, '--timeout'),
    stallAfterMs: flags.stallAfter === undefined ? null : parseDuration(flags.stallAfter, '--stall-after'),
    stallTimeoutMs:
      flags.stallTimeout === undefined ? null : parseDuration(flags.stallTimeout, '--stall-timeout'),
    fatalGraceMs: parseDuration(flags.fatalGrace, '--fatal-grace'),
    downloadFolder: flags.model === undefined ? null : downloadFolder(flags.model, io.env),
    createDiagnosisSession: () => createDiagnosisSession({ signatures }),
    onEvent,
  };
}

/** `watch --follow`: until stopped, every target; watch-follow.ts. */
async function followWatch(
  flags: WatchFlags,
  containers: ReturnType<typeof chosenContainers>,
  io: CliIo,
): Promise<number> {
  if (flags.journalFile.length > 0 || flags.journalDir !== undefined || flags.stopOnCrash || flags.report)
    throw new UsageError(
      '--journal-file, --journal-dir, --stop-on-crash and --report go without --follow (incidents keep pages)',
    );
  const runner = chooseRunner(flags, io);
  const { signatures } = await loadSignatures({ rulesDirs: flags.rules ?? [], env: io.env });
  const common = watchOptions(flags, signatures, () => undefined, io);
  return followTargets(
    {
      units: flags.unit ?? [],
      containers,
      kube: flags.kube,
      selector: flags.selector,
      namespace: flags.namespace,
      container: flags.container,
      logs: flags.log ?? [],
      stateDir: flags.stateDir,
      webhook: flags.webhook,
      alertmanager: flags.alertmanager,
      slackWebhook: flags.slackWebhook,
      onFailure: flags.onFailure,
      hookTimeout: parseDuration(flags.onFailureTimeout, '--on-failure-timeout'),
      metricsListen: flags.metricsListen,
      redact: flags.redact,
      format: flags.format,
    },
    common,
    runner,
    io,
  );
}

/** `watch --print-manifest`: the follow of one pod or a selector's pods, as a Deployment in its namespace. */
function printManifest(flags: WatchFlags, io: CliIo): number {
  const target =
    flags.kube !== undefined
      ? { pod: flags.kube }
      : flags.selector === undefined
        ? null
        : { selector: flags.selector };
  if (target === null || flags.namespace === undefined || flags.image === undefined)
    throw new UsageError(
      '--print-manifest needs --kube POD (or --kube -l SELECTOR), -n NAMESPACE and --image IMAGE',
    );
  const receiverArgs: string[] = [];
  if (flags.webhook !== undefined)
    receiverArgs.push('--webhook', parseReceiverUrl(flags.webhook, '--webhook').href);
  if (flags.alertmanager !== undefined)
    receiverArgs.push('--alertmanager', parseReceiverUrl(flags.alertmanager, '--alertmanager').href);
  if (flags.slackWebhook !== undefined)
    receiverArgs.push('--slack-webhook', parseReceiverUrl(flags.slackWebhook, '--slack-webhook').href);
  io.stdout.write(
    renderWatcherManifest({
      target,
      namespace: flags.namespace,
      container: flags.container,
      image: flags.image,
      receiverArgs,
    }),
  );
  return 0;
}
