import { Option, type Command } from 'commander';
import { diagnoseFrom, diagnoseStream } from '../../diagnosis/index.js';
import { UsageError } from '../../errors.js';
import { REPORT_FORMATS, type ReportFormat } from '../../reporting/index.js';
import { createTimelineBuilder } from '../../timeline/build-timeline.js';
import { tapLines } from '../../timeline/tap-lines.js';
import { renderPage } from '../render-page.js';
import { renderReport } from '../render-report.js';
import { loadSignatures } from '../../rules/load-user-signatures.js';
import { openSource, type SourceSpec } from '../../sources/index.js';
import { startPrescanThread } from '../../system/prescan-thread.js';
import { wantsColor, type CliIo } from '../io.js';
import type { SetExit } from './index.js';

interface DiagnoseFlags {
  unit?: string;
  journalFile?: string[];
  journalDir?: string;
  since?: string;
  docker?: string;
  kube?: string;
  namespace?: string;
  container?: string;
  previous?: boolean;
  format: ReportFormat | 'html';
  rules?: string[];
  redact: boolean;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function registerDiagnose(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('diagnose')
    .description('name the root cause of a crashed inference server from its log')
    .argument('[files...]', "log files, plain or .gz; '-' reads standard input")
    .option('--unit <name>', "a systemd unit's journal (its last failed start)")
    .option('--journal-file <path>', 'read this journal file (repeatable)', collect)
    .option('--journal-dir <dir>', 'read journal files from this folder')
    .option('--since <time>', 'only journal or container lines since this time')
    .option('--docker <container>', "a Docker container's logs")
    .option('--kube <pod>', "a Kubernetes pod's logs")
    .option('-n, --namespace <ns>', 'the pod namespace (with --kube)')
    .option('--container <name>', 'the container in the pod (with --kube)')
    .option('--previous', "the previous container's logs (with --kube), after a restart")
    .addOption(
      new Option('--format <format>', 'report format (html: one self-contained page)')
        .choices([...REPORT_FORMATS, 'html'])
        .default('text'),
    )
    .option('--rules <dir>', 'extra signature files, YAML or JSON (repeatable)', collect)
    .option('--no-redact', 'show tokens and passwords as they are in the log')
    .addHelpText(
      'after',
      '\nExamples:\n  vigil diagnose server.log\n  journalctl -u vllm | vigil diagnose -\n  vigil diagnose --unit vllm --format markdown\n\nExit codes: 0 no failure found, 1 failure diagnosed, 2 usage or input error.',
    )
    .action(async (files: string[], flags: DiagnoseFlags) => {
      const spec = chooseSource(files, flags, io);
      const { signatures } = await loadSignatures({ rulesDirs: flags.rules ?? [], env: io.env });
      // The diagnosis copies each chunk into its own blocks as it takes it (diagnosis/scan-blocks.ts).
      const source = await openSource(spec, { stdin: io.stdin, env: io.env }, { reuseChunks: true });
      const options = {
        signatures,
        startHelper: startPrescanThread,
        ...(source.unit ? { unit: source.unit } : {}),
      };
      // A page also draws the starts on a timeline: its builder reads the same chunks as they pass.
      const timeline = flags.format === 'html' ? createTimelineBuilder() : null;
      // Files are read straight into the diagnosis's buffers; streams arrive as chunks.
      let diagnosis =
        source.readInto && timeline === null
          ? diagnoseFrom(source.readInto, options)
          : await diagnoseStream(
              timeline ? tapLines(source.chunks, (line) => timeline.push(line)) : source.chunks,
              options,
            );
      diagnosis = {
        ...diagnosis,
        input: { ...diagnosis.input, formats: [...source.formats, ...diagnosis.input.formats] },
        warnings: [...source.warnings, ...diagnosis.warnings],
      };
      io.stdout.write(
        flags.format === 'html'
          ? renderPage([{ label: null, diagnosis, timeline: timeline?.finish() ?? null }], {
              redact: flags.redact,
            })
          : renderReport(diagnosis, { format: flags.format, color: wantsColor(io), redact: flags.redact }),
      );
      setExit(diagnosis.verdict === 'failure' ? 1 : 0);
    });
}

function chooseSource(files: string[], flags: DiagnoseFlags, io: CliIo): SourceSpec {
  const chosen = [
    files.length > 0,
    flags.unit !== undefined,
    flags.docker !== undefined,
    flags.kube !== undefined,
  ];
  if (chosen.filter(Boolean).length > 1) {
    throw new UsageError('give one source: log files, --unit, --docker or --kube');
  }
  if (flags.unit !== undefined) {
    return {
      kind: 'unit',
      unit: flags.unit,
      ...(flags.journalFile ? { journalFile: flags.journalFile } : {}),
      ...(flags.journalDir ? { journalDir: flags.journalDir } : {}),
      ...(flags.since ? { since: flags.since } : {}),
    };
  }
  if (flags.journalFile || flags.journalDir)
    throw new UsageError('--journal-file and --journal-dir need --unit NAME');
  if (flags.docker !== undefined) {
    return { kind: 'docker', container: flags.docker, ...(flags.since ? { since: flags.since } : {}) };
  }
  if (flags.kube !== undefined) {
    return {
      kind: 'kube',
      pod: flags.kube,
      ...(flags.namespace ? { namespace: flags.namespace } : {}),
      ...(flags.container ? { container: flags.container } : {}),
      ...(flags.previous ? { previous: true } : {}),
    };
  }
  if (files.length > 0) return { kind: 'files', paths: files };
  if ((io.stdin as { isTTY?: boolean }).isTTY) {
    throw new UsageError(
      "give a log file, '-' for standard input, --unit, --docker or --kube (see vigil diagnose --help)",
    );
  }
  return { kind: 'files', paths: ['-'] };
}
