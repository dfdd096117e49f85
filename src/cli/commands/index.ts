import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import { COMMAND_NAMES, type CommandName } from './names.js';
import { summarizeCommands } from './summaries.js';

/** Sets the process exit code for the command that ran. */
export type SetExit = (code: number) => void;

type Register = (program: Command, io: CliIo, setExit: SetExit) => void;

/**
 * Each command's module, loaded only when that command runs: `vigil check` need not load the diagnosis
 * engine and its signatures, and start-up is most of a short command's time.
 */
const COMMANDS: Record<CommandName, () => Promise<Register>> = {
  diagnose: async () => (await import('./diagnose.js')).registerDiagnose,
  eval: async () => (await import('./eval.js')).registerEval,
  signatures: async () => (await import('./signatures.js')).registerSignatures,
  check: async () => (await import('./check.js')).registerCheck,
  snapshot: async () => (await import('./snapshot.js')).registerSnapshot,
  diff: async () => (await import('./diff.js')).registerDiff,
  run: async () => (await import('./run.js')).registerRun,
  unit: async () => (await import('./unit.js')).registerUnit,
  watch: async () => (await import('./watch.js')).registerWatch,
  'probe-config': async () => (await import('./probe-config.js')).registerProbeConfig,
  incidents: async () => (await import('./incidents.js')).registerIncidents,
};

/**
 * Registers the command named in argv; none for `--version` alone (it prints and ends before any command
 * is read); for the program's help and a name that is not one, each command's summary alone (its module
 * is not loaded: summaries.ts); all of them for `vigil help NAME`, which prints that command's own help.
 */
export async function registerCommands(
  program: Command,
  io: CliIo,
  setExit: SetExit,
  argv: string[],
): Promise<void> {
  const named = argv.find((arg) => !arg.startsWith('-'));
  // Not `named in COMMANDS`: that holds for 'constructor' and the other names every object has.
  const wanted = COMMAND_NAMES.find((name) => name === named);
  if (named === undefined && argv.length > 0 && argv.every((arg) => arg === '-V' || arg === '--version'))
    return;
  if (wanted === undefined && named !== 'help') {
    summarizeCommands(program, COMMAND_NAMES);
    return;
  }
  for (const name of wanted === undefined ? COMMAND_NAMES : [wanted])
    (await COMMANDS[name]())(program, io, setExit);
}
