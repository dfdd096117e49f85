import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Option, type Command } from 'commander';
import { UsageError, SourceError } from '../../errors.js';
import { BOUNDARIES, type Boundary } from '../../evaluation/build-haystack.js';
import {
  evaluateCases,
  evaluateHaystack,
  type CaseResult,
  type EvaluateOptions,
  type LabelledCase,
} from '../../evaluation/evaluate-cases.js';
import { evaluateModes, formatSummary, type Summary } from '../../evaluation/evaluate-modes.js';
import type { CaseLabel } from '../../evaluation/score-case.js';
import type { CliIo } from '../io.js';
import type { SetExit } from './index.js';
import { COMMAND_SUMMARIES } from './summaries.js';

interface EvalFlags {
  haystack?: string[];
  boundary?: string;
  signatures: boolean;
  all?: boolean;
}

/**
 * Scores diagnoses on a folder of labelled logs (NAME.log beside NAME.json) by the corpus rule, so a
 * signature author sees at once what a change did to accuracy; `--haystack` places each failure after
 * hours of healthy logs, as a whole journal holds it.
 */
export function registerEval(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('eval')
    .description(COMMAND_SUMMARIES.eval.description)
    .argument('<dirs...>', 'folders of labelled cases')
    .option('--haystack <dirs...>', 'place each failure after all healthy logs of these folders')
    .addOption(
      new Option('--boundary <kind>', 'what separates the runs in the haystack (default: none)').choices(
        BOUNDARIES,
      ),
    )
    .option('--no-signatures', 'score the general classifier alone, without the failure signatures')
    .option(
      '--all',
      'every figure in one table: alone, inside the --haystack logs with each boundary, --no-signatures, and the healthy logs',
    )
    .action(async (dirs: string[], flags: EvalFlags) => {
      const haystack = flags.haystack ? await readHealthy(flags.haystack) : undefined;
      if (haystack?.length === 0)
        throw new UsageError(`no healthy labelled logs in ${flags.haystack?.join(', ')}`);
      if (flags.all) {
        if (flags.boundary !== undefined || !flags.signatures)
          throw new UsageError(
            '--all scores every boundary and both layers: leave out --boundary and --no-signatures',
          );
        const folders = [];
        for (const dir of dirs) folders.push({ name: dir, cases: await readCases(dir) });
        const summary = evaluateModes(folders, haystack ?? []);
        writeMisses(summary, io);
        io.stdout.write(formatSummary(summary));
        setExit(hasMisses(summary) ? 1 : 0);
        return;
      }
      const options: EvaluateOptions = {
        boundary: (flags.boundary ?? 'none') as Boundary,
        ...(haystack ? { haystack } : {}),
        ...(flags.signatures ? {} : { signatures: [] }),
      };
      let failures = 0;
      if (haystack)
        failures += report(
          `haystack (${options.boundary})`,
          [evaluateHaystack(haystack, options.boundary ?? 'none')],
          io,
        );
      for (const dir of dirs) failures += report(dir, evaluateCases(await readCases(dir), options), io);
      setExit(failures > 0 ? 1 : 0);
    });
}

/** Each case a mode missed, one line each, before the table. */
function writeMisses(summary: Summary, io: CliIo): void {
  for (const { mode, folders } of summary.modes) {
    for (const folder of folders) {
      for (const r of folder.misses) {
        const what = r.rootCause
          ? `category ${folder.folder}/${r.name}: got ${r.gotCategory ?? 'none'}, expected ${r.expectedCategory ?? '?'}`
          : `miss ${folder.folder}/${r.name}: ${oneLine(r.reason)}`;
        io.stdout.write(`[${mode.id}] ${what}\n`);
      }
    }
  }
  for (const r of summary.healthy.blamedAlone)
    io.stdout.write(`false alarm ${r.name}: ${oneLine(r.reason)}\n`);
  for (const { boundary, result } of summary.healthy.inARow) {
    if (!result.rootCause)
      io.stdout.write(`false alarm [in a row, ${boundary}]: ${oneLine(result.reason)}\n`);
  }
}

/** A miss in a mode that uses the signatures, or a healthy log blamed: the eval's finding. */
function hasMisses(summary: Summary): boolean {
  const missed = summary.modes.some(
    ({ mode, folders }) => mode.signatures && folders.some((f) => f.rootCause < f.failures),
  );
  return (
    missed ||
    summary.healthy.blamedAlone.length > 0 ||
    summary.healthy.inARow.some((h) => !h.result.rootCause)
  );
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ');

/** Prints each miss and the folder's figures; returns how many cases failed. */
function report(title: string, results: readonly CaseResult[], io: CliIo): number {
  const failing = results.filter((r) => !r.healthy);
  const healthy = results.filter((r) => r.healthy);
  for (const r of results) {
    if (!r.rootCause)
      io.stdout.write(`${r.healthy ? 'false alarm' : 'miss'} ${r.name}: ${oneLine(r.reason)}\n`);
    else if (!r.healthy && !r.category)
      io.stdout.write(
        `category ${r.name}: got ${r.gotCategory ?? 'none'}, expected ${r.expectedCategory ?? '?'}\n`,
      );
  }
  const count = (list: readonly CaseResult[], ok: (r: CaseResult) => boolean): string => {
    const n = list.filter(ok).length;
    return `${n}/${list.length} (${((100 * n) / list.length).toFixed(1)}%)`;
  };
  if (failing.length > 0) {
    io.stdout.write(
      `${title}: root cause ${count(failing, (r) => r.rootCause)}, category ${count(failing, (r) => r.category)}\n`,
    );
  }
  if (healthy.length > 0) {
    io.stdout.write(`${title}: healthy logs without a false alarm ${count(healthy, (r) => r.rootCause)}\n`);
  }
  return results.filter((r) => !r.rootCause).length;
}

async function readHealthy(dirs: readonly string[]): Promise<LabelledCase[]> {
  const all: LabelledCase[] = [];
  for (const dir of dirs) all.push(...(await readCases(dir)).filter((c) => !c.label.root_cause));
  return all;
}

/** The folder's labelled cases, by name; a log without a readable label is left out. */
async function readCases(dir: string): Promise<LabelledCase[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.log')).sort();
  } catch (error) {
    throw new SourceError(`cannot read folder ${dir}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`, {
      cause: error,
    });
  }
  const cases: LabelledCase[] = [];
  for (const name of names) {
    const label = await readLabel(join(dir, name.replace(/\.log$/, '.json')));
    if (label !== null) cases.push({ name, text: await readFile(join(dir, name), 'utf8'), label });
  }
  return cases;
}

async function readLabel(path: string): Promise<CaseLabel | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as CaseLabel;
  } catch {
    return null;
  }
}
