import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { registerDiagnose } from './diagnose.js';
import { registerEval } from './eval.js';
import { registerSignatures } from './signatures.js';
import { registerCheck } from './check.js';
import { registerSnapshot } from './snapshot.js';
import { registerDiff } from './diff.js';
import { registerRun } from './run.js';
import { registerUnit } from './unit.js';
import { registerWatch } from './watch.js';

/** Sets the process exit code for the command that ran. */
export type SetExit = (code: number) => void;

export function registerCommands(program: Command, io: CliIo, setExit: SetExit): void {
  registerDiagnose(program, io, setExit);
  registerEval(program, io, setExit);
  registerSignatures(program, io, setExit);
  registerCheck(program, io, setExit);
  registerSnapshot(program, io, setExit);
  registerDiff(program, io, setExit);
  registerRun(program, io, setExit);
  registerUnit(program, io, setExit);
  registerWatch(program, io, setExit);
}
