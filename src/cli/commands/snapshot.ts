import type { Command } from 'commander';
import { createSnapshot, readEnvironment } from '../../environment/index.js';
import type { CliIo } from '../io.js';
import { addEnvironmentOptions, withEnvironment, type EnvironmentFlags } from './check.js';
import type { SetExit } from './index.js';
import { COMMAND_SUMMARIES } from './summaries.js';

export function registerSnapshot(program: Command, io: CliIo, setExit: SetExit): void {
  addEnvironmentOptions(program.command('snapshot').description(COMMAND_SUMMARIES.snapshot.description), {
    remote: true,
  })
    .addHelpText(
      'after',
      '\nExample:\n  vigil snapshot --venv /opt/vllm > before.json\n  (upgrade)\n  vigil check --venv /opt/vllm --against before.json\n',
    )
    .action(async (flags: EnvironmentFlags) => {
      const snapshot = await withEnvironment(flags, io, async (options) =>
        createSnapshot(await readEnvironment(options)),
      );
      io.stdout.write(`${JSON.stringify(snapshot, null, 2)}\n`);
      setExit(0);
    });
}
