import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { CHECKS, findPartialMoves } from '../../checks/index.js';
import { toFinding } from '../../checks/run-checks.js';
import { aimFindings, mostCommonInstaller } from '../../fix/aim-findings.js';
import { diffSnapshots, readSnapshotFile, snapshotVersions } from '../../environment/index.js';
import { renderDiff, type ReportFormat } from '../../reporting/check/index.js';
import { terminalWidth, wantsColor, type CliIo } from '../io.js';
import type { SetExit } from './index.js';
import { COMMAND_SUMMARIES } from './summaries.js';

export function registerDiff(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('diff')
    .description(COMMAND_SUMMARIES.diff.description)
    .argument('<old>', 'a snapshot written by vigil snapshot')
    .argument('<new>', 'a later snapshot')
    .addOption(
      new Option('--format <format>', 'output format').choices(['text', 'json', 'markdown']).default('text'),
    )
    .addHelpText(
      'after',
      '\nExit status: 1 when a lock-step family (flashinfer, torch) moved only in part; 2 for unreadable files.\n',
    )
    .action(async (oldFile: string, newFile: string, flags: { format: ReportFormat }) => {
      const before = await readSnapshotFile(resolve(io.cwd, oldFile), oldFile);
      const after = await readSnapshotFile(resolve(io.cwd, newFile), newFile);
      const check = CHECKS.find((c) => c.id === 'family-moved-in-part');
      const problems = findPartialMoves(snapshotVersions(before), snapshotVersions(after));
      const found = check === undefined ? [] : problems.map((problem) => toFinding(check, problem));
      // Aimed at the environment the newer snapshot was taken of: its interpreter, uv when uv built it.
      const findings = aimFindings(
        found,
        {
          python: after.environment.python,
          sitePackages: after.environment.sitePackages,
          installer: mostCommonInstaller(after.environment.distributions),
        },
        { kind: 'local' },
      );
      const report = { before: oldFile, after: newFile, diff: diffSnapshots(before, after), findings };
      io.stdout.write(renderDiff(report, flags.format, { color: wantsColor(io), width: terminalWidth(io) }));
      setExit(findings.some((finding) => finding.severity === 'error') ? 1 : 0);
    });
}
