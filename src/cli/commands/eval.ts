import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { diagnose } from '../../diagnosis/index.js';
import { SourceError } from '../../errors.js';
import { scoreCase, type CaseLabel } from '../../evaluation/score-case.js';
import type { CliIo } from '../io.js';
import type { SetExit } from './index.js';

/**
 * Scores diagnoses on a folder of labelled logs (NAME.log beside NAME.json) by the corpus rule, so a
 * signature author sees at once what a change did to accuracy.
 */
export function registerEval(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('eval')
    .description('score diagnoses on a folder of labelled logs (NAME.log + NAME.json)')
    .argument('<dirs...>', 'folders of labelled cases')
    .action(async (dirs: string[]) => {
      let failures = 0;
      for (const dir of dirs) failures += await evaluateFolder(dir, io);
      setExit(failures > 0 ? 1 : 0);
    });
}

async function evaluateFolder(dir: string, io: CliIo): Promise<number> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.log')).sort();
  } catch (error) {
    throw new SourceError(`cannot read folder ${dir}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`, {
      cause: error,
    });
  }
  let rootCause = 0;
  let category = 0;
  let labelled = 0;
  let healthy = 0;
  let healthyOk = 0;
  for (const name of names) {
    const label = await readLabel(join(dir, name.replace(/\.log$/, '.json')));
    if (label === null) continue;
    const diagnosis = diagnose(await readFile(join(dir, name)));
    const score = scoreCase(diagnosis, label);
    if (score.healthy !== null) {
      healthy++;
      if (score.healthy) healthyOk++;
      else io.stdout.write(`false alarm ${name}: ${score.reason}\n`);
      continue;
    }
    labelled++;
    if (score.rootCause) rootCause++;
    else
      io.stdout.write(
        `miss ${name}: ${score.reason}\n     expected: ${label.root_cause?.exception ?? 'null'}: ${label.root_cause?.message_contains ?? ''}\n`,
      );
    if (score.category) category++;
    else
      io.stdout.write(
        `category ${name}: got ${diagnosis.signature?.category ?? 'other'}, expected ${label.category ?? '?'}\n`,
      );
  }
  const pct = (n: number, d: number): string => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);
  if (labelled > 0) {
    io.stdout.write(
      `${dir}: root cause ${rootCause}/${labelled} (${pct(rootCause, labelled)}), category ${category}/${labelled} (${pct(category, labelled)})\n`,
    );
  }
  if (healthy > 0)
    io.stdout.write(
      `${dir}: healthy logs without a false alarm ${healthyOk}/${healthy} (${pct(healthyOk, healthy)})\n`,
    );
  return labelled - rootCause + (healthy - healthyOk);
}

async function readLabel(path: string): Promise<CaseLabel | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as CaseLabel;
  } catch {
    return null;
  }
}
