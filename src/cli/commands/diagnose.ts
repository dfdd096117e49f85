import { isatty } from 'node:tty';
import { Option, type Command } from 'commander';
import { diagnoseFrom, diagnoseStream, type DiagnoseOptions } from '../../diagnosis/index.js';
import { aimFixThere, placeOf, withOwner, type FixSite } from '../aim-fix-at.js';
import { SourceError, UsageError } from '../../errors.js';
import { redactDiagnosis } from '../../redaction/index.js';
import { REPORT_FORMATS, type ReportFormat } from '../../reporting/index.js';
import type { Diagnosis } from '../../types/diagnosis.js';
import type { PageInput } from '../render-page.js';
import { renderReport } from '../render-report.js';
import { loadSignatures, type LoadedSignatures } from '../../rules/load-user-signatures.js';
import {
  findSourceOwner,
  openSource,
  type OpenedSource,
  type SourceOwner,
  type SourceSpec,
} from '../../sources/index.js';
import { PrescanThread } from '../../system/prescan-thread.js';
import type { ContainerRuntimeName } from '../../sources/containers/index.js';
import { addContainerOptions, chosenContainers, composeRuntime } from '../container-flags.js';
import { planFleet, type FleetFlags } from '../fleet-flags.js';
import { terminalWidth, wantsColor, type CliIo } from '../io.js';
import { addTransportOptions, chooseRunner, chooseRunners } from '../transport-flags.js';
import type { SetExit } from './index.js';
import { collectValues } from '../collect-values.js';
import { helperPays, provesHelper } from '../helper-pays.js';
import { isShortLog, withBaselineCode } from '../short-log.js';
import { COMMAND_SUMMARIES } from './summaries.js';

interface DiagnoseFlags extends FleetFlags {
  unit?: string;
  journalFile?: string[];
  journalDir?: string;
  since?: string;
  format: ReportFormat | 'html';
  rules?: string[];
  redact: boolean;
  brief?: boolean;
}

export function registerDiagnose(program: Command, io: CliIo, setExit: SetExit): void {
  const command = program
    .command('diagnose')
    .description(COMMAND_SUMMARIES.diagnose.description)
    .argument('[files...]', "log files, plain or .gz; '-' reads standard input")
    .option('--unit <name>', "a systemd unit's journal (its last failed start)")
    .option('--journal-file <path>', 'with --unit: read this journal file (repeatable)', collectValues)
    .option('--journal-dir <dir>', 'with --unit: read journal files from this folder')
    .option('--since <time>', 'with --unit or --docker: only lines since this time');
  addContainerOptions(command, { many: true });
  command
    .option('--compose <project>', 'every container of a docker compose project (a fleet)')
    .option('--kube [pod]', "a Kubernetes pod's logs; with -l, every pod the selector names (a fleet)")
    .option('-l, --selector <selector>', 'with --kube: the pods with these labels, e.g. app=vllm')
    .option('-n, --namespace <ns>', 'with --kube: the pod namespace')
    .option('-A, --all-namespaces', 'with --kube -l: the pods of every namespace')
    .option('--container <name>', 'with --kube: the container in the pod')
    .option('--previous', "with --kube: the previous container's logs, after a restart")
    .option('--concurrency <n>', 'a fleet: how many members are read at once', '4');
  addTransportOptions(command, { hosts: true })
    .addOption(
      new Option('--format <format>', 'report format (html: one self-contained page)')
        .choices([...REPORT_FORMATS, 'html'])
        .default('text'),
    )
    .option('--rules <dir>', 'extra signature files, YAML or JSON (repeatable)', collectValues)
    .option('--no-redact', 'show tokens and passwords as they are in the log')
    .option('--brief', 'text: only the verdict, the fix and how to verify it')
    .addHelpText(
      'after',
      '\nExamples:\n  vigil diagnose server.log\n  journalctl -u vllm | vigil diagnose -\n  vigil diagnose --unit vllm --format markdown\n' +
        '  vigil diagnose --ssh root@gpu-1 --unit vllm-kimi-k25\n  vigil diagnose --kube -l app=vllm -n llm\n\n' +
        'Exit codes: 0 no failure found, 1 failure diagnosed, 2 usage or input error.',
    )
    .action(async (files: string[], flags: DiagnoseFlags) => {
      const spec = chooseSource(files, flags, io);
      const rules = await loadSignatures({ rulesDirs: flags.rules ?? [], env: io.env });
      const fleet = await planFleet(spec, flags, io);
      if (fleet !== null) {
        const format = flags.format;
        const { readFleet, groupFleet, renderFleet } = await loadFleet();
        const inputs = await readFleet(fleet.plans, {
          io: { stdin: io.stdin, env: io.env },
          concurrency: fleet.concurrency,
          diagnose: async (source, plan) => {
            const site = { place: placeOf(plan.spec, plan.runner.host), runner: plan.runner, env: io.env };
            // Each member's fix restarts its own owner: its compose service, its pod's workload.
            const owner = (): Promise<SourceOwner> => findSourceOwner(plan.spec, plan.runner, io.env);
            const options = { signatures: rules.signatures };
            const diagnosis = (await diagnoseOpened(source, options, rules, site, false, owner)).diagnosis;
            return flags.redact ? redactDiagnosis(diagnosis) : diagnosis;
          },
        });
        const report = groupFleet(fleet.target, inputs);
        io.stdout.write(
          format === 'html'
            ? (await loadPages()).renderFleetPage(report, { redact: flags.redact })
            : renderFleet(report, { format, color: wantsColor(io) }),
        );
        const read = report.members.some(
          (member) => member.diagnosis !== null || member.cause.kind !== 'unreadable',
        );
        setExit(!read ? 2 : report.failed > 0 ? 1 : 0);
        return;
      }
      const html = flags.format === 'html';
      const pages = html ? await loadPages() : null;
      const runner = chooseRunner(flags, io);
      const helpers: PrescanThread[] = [];
      const run = (source: SourceSpec, alone = false): Promise<PageInput> =>
        diagnoseSource(source, rules, io, runner, html, helpers, alone);
      const page = (inputs: PageInput[]): string => {
        if (pages === null) throw new Error('a page asked for without --format html');
        return pages.renderPage(inputs, { redact: flags.redact });
      };
      const render = (diagnosis: Diagnosis): string =>
        flags.format === 'html'
          ? page([{ label: null, diagnosis, timeline: null }])
          : renderReport(diagnosis, {
              format: flags.format,
              color: wantsColor(io),
              redact: flags.redact,
              width: terminalWidth(io),
              ...(flags.brief === true ? { brief: true } : {}),
            });
      if (spec.kind === 'files' && spec.paths.length > 1) {
        const paths = spec.paths;
        if (paths.filter((path) => path === '-').length > 1) {
          throw new UsageError("stdin ('-') can be given only once");
        }
        const diagnose = (path: string): Promise<PageInput> => run({ kind: 'files', paths: [path] });
        const { diagnoseEach } = await import('../diagnose-files.js');
        setExit(
          await diagnoseEach(paths, io, {
            format: flags.format,
            redact: flags.redact,
            diagnose,
            render,
            page,
          }),
        );
        return;
      }
      const { diagnosis, timeline } = await run(spec, true);
      if (io.env.VIGIL_DEBUG === '1') io.stderr.write(`vigil: debug: ${describeHelpers(helpers)}\n`);
      io.stdout.write(html ? page([{ label: null, diagnosis, timeline }]) : render(diagnosis));
      // A unit that is up again has no failure now: the one diagnosed is history.
      setExit(diagnosis.verdict === 'failure' && diagnosis.current === undefined ? 1 : 0);
    });
}

/**
 * Reading and grouping a fleet, loaded only for one (as the page's code below, and the timeline and the
 * files one after the other): a diagnosis of one log starts without their modules.
 */
async function loadFleet() {
  const [{ readFleet }, { groupFleet }, { renderFleet }] = await Promise.all([
    import('../../fleet/read-fleet.js'),
    import('../../fleet/group-fleet.js'),
    import('../../reporting/fleet/render-fleet.js'),
  ]);
  return { readFleet, groupFleet, renderFleet };
}

/** The page's code (styles, script, timeline drawing), loaded only for `--format html`: start-up. */
function loadPages(): Promise<typeof import('../render-page.js')> {
  return import('../render-page.js');
}

/** Whether the helper thread ran (the standalone binary starts it from embedded code). */
function describeHelpers(helpers: readonly PrescanThread[]): string {
  if (helpers.length === 0) return 'no prescan helper thread started';
  return `prescan helper thread searched ${helpers.reduce((sum, h) => sum + h.searched, 0)} blocks`;
}

/**
 * One source's diagnosis, with the source's and the rules' formats and warnings merged in, and for a page
 * the starts on a timeline. `alone`: it is all this command reads (a short log alone is read without V8's
 * optimizing compiler: short-log.ts).
 */
async function diagnoseSource(
  spec: SourceSpec,
  rules: LoadedSignatures,
  io: CliIo,
  runner: ReturnType<typeof chooseRunner>,
  withTimeline: boolean,
  helpers: PrescanThread[],
  alone: boolean,
): Promise<PageInput> {
  // The diagnosis copies each chunk into its own blocks as it takes it (diagnosis/scan-blocks.ts).
  const sourceIo = {
    // Read only when stdin is read as a stream; a pipe is read from its descriptor (sources/open-stdin.ts).
    get stdin() {
      return io.stdin;
    },
    ...(io.stdinFd === undefined ? {} : { stdinFd: io.stdinFd }),
    env: io.env,
    runner,
  };
  const source = await openSource(spec, sourceIo, { reuseChunks: true });
  const options: DiagnoseOptions = {
    signatures: rules.signatures,
    startHelper: (slots: number, blockBytes: number, maxLineLength: number) => {
      if (!helperPays(io.env)) return null;
      const helper = PrescanThread.start(slots, blockBytes, maxLineLength, provesHelper(io.env));
      if (helper !== null) helpers.push(helper);
      return helper;
    },
  };
  const site = { place: placeOf(spec, runner.host), runner, env: io.env };
  const owner = (): Promise<SourceOwner> => findSourceOwner(spec, runner, io.env);
  const read = (): Promise<PageInput> => diagnoseOpened(source, options, rules, site, withTimeline, owner);
  return alone && isShortLog(spec, source.readInto !== undefined) ? withBaselineCode(read) : read();
}

/**
 * The diagnosis of an opened log, with what was read and how (input.source, formats, warnings), the fix
 * aimed at the crashed environment, and for a page the starts on a timeline.
 */
async function diagnoseOpened(
  source: OpenedSource,
  options: DiagnoseOptions,
  rules: LoadedSignatures,
  site: FixSite,
  withTimeline = false,
  owner: () => Promise<SourceOwner> = () => Promise.resolve({}),
): Promise<PageInput> {
  const withUnit = { ...options, ...(source.unit ? { unit: source.unit } : {}) };
  // A page also draws the starts on a timeline: its builder reads the same chunks as they pass.
  const timeline = withTimeline
    ? (await import('../../timeline/build-timeline.js')).createTimelineBuilder()
    : null;
  // Files are read straight into the diagnosis's buffers; streams arrive as chunks.
  const diagnosis =
    source.readInto && timeline === null
      ? diagnoseFrom(source.readInto, withUnit)
      : await diagnoseStream(
          timeline
            ? (await import('../../timeline/tap-lines.js')).tapLines(source.chunks, (line) =>
                timeline.push(line),
              )
            : source.chunks,
          withUnit,
        );
  // A log cut at its cap may hold its failure in the part not read: "no failure" would be a guess.
  if (source.cut !== undefined && diagnosis.verdict === 'no-failure') throw new SourceError(source.cut);
  return {
    label: null,
    diagnosis: {
      ...(await aimFixThere(diagnosis, await withOwner(site.place, diagnosis, owner), site.runner, site.env)),
      input: {
        ...diagnosis.input,
        source: source.describe,
        ...(source.partial === undefined ? {} : { partial: true }),
        formats: [...source.formats, ...diagnosis.input.formats],
      },
      warnings: [...rules.warnings, ...source.warnings, ...diagnosis.warnings],
      ...(source.runningSince === undefined
        ? {}
        : { current: { state: 'running' as const, since: source.runningSince } }),
    },
    timeline: timeline?.finish() ?? null,
  };
}

function chooseSource(files: string[], flags: DiagnoseFlags, io: CliIo): SourceSpec {
  const kube = flags.kube !== undefined || flags.selector !== undefined;
  const containers = chosenContainers(flags);
  const docker = containers !== null || flags.compose !== undefined;
  const chosen = [files.length > 0, flags.unit !== undefined, docker, kube];
  if (chosen.filter(Boolean).length > 1) {
    throw new UsageError('give one source: log files, --unit, --docker/--compose or --kube');
  }
  refuseStray(flags, { unit: flags.unit !== undefined, docker, kube });
  if (flags.unit !== undefined) {
    return {
      kind: 'unit',
      unit: flags.unit,
      ...(flags.journalFile ? { journalFile: flags.journalFile } : {}),
      ...(flags.journalDir ? { journalDir: flags.journalDir } : {}),
      ...(flags.since ? { since: flags.since } : {}),
    };
  }
  if (docker) {
    const runtime = containers?.runtime ?? composeRuntime();
    const [first] = containers?.names ?? [];
    return {
      kind: runtime.name as ContainerRuntimeName,
      container: first ?? '',
      ...(flags.since ? { since: flags.since } : {}),
    };
  }
  if (kube) {
    return {
      kind: 'kube',
      pod: typeof flags.kube === 'string' ? flags.kube : '',
      ...(flags.namespace ? { namespace: flags.namespace } : {}),
      ...(flags.container ? { container: flags.container } : {}),
      ...(flags.previous ? { previous: true } : {}),
    };
  }
  if (files.length > 0) return { kind: 'files', paths: files };
  if (chooseRunners(flags, io).length > 0) {
    throw new UsageError('with --ssh, name what to read there: log files, --unit, --docker or --kube');
  }
  if (io.stdinFd === undefined ? (io.stdin as { isTTY?: boolean }).isTTY : isatty(io.stdinFd)) {
    throw new UsageError(
      "give a log file, '-' for standard input, --unit, --docker or --kube (see vigil diagnose --help)",
    );
  }
  return { kind: 'files', paths: ['-'] };
}

function refuseStray(flags: DiagnoseFlags, chosen: { unit: boolean; docker: boolean; kube: boolean }): void {
  const stray = (names: string[], given: boolean[], goes: string): void => {
    const used = names.filter((_, index) => given[index] === true);
    if (used.length > 0)
      throw new UsageError(`${used.join(', ')} ${used.length > 1 ? 'go' : 'goes'} with ${goes}`);
  };
  if (!chosen.unit) {
    stray(
      ['--journal-file', '--journal-dir'],
      [flags.journalFile !== undefined, flags.journalDir !== undefined],
      '--unit NAME',
    );
  }
  if (!chosen.kube) {
    stray(
      ['--namespace', '--container', '--previous', '--all-namespaces'],
      [
        flags.namespace !== undefined,
        flags.container !== undefined,
        flags.previous === true,
        flags.allNamespaces === true,
      ],
      '--kube',
    );
  }
  // kubectl logs takes a duration or an RFC 3339 time, not journalctl's words: refused rather than guessed.
  if (chosen.kube && flags.since !== undefined)
    throw new UsageError('--since goes with --unit or --docker, not --kube');
  if (!chosen.unit && !chosen.docker && flags.since !== undefined)
    throw new UsageError('--since goes with --unit or --docker');
}
