import type { Command } from 'commander';
import { createSnapshot, readEnvironment } from '../../environment/index.js';
import { EnvironmentError } from '../../errors.js';
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
      // An empty list would pass for an environment with nothing installed: a `--against` later would then
      // call every package new. Most often the path was wrong.
      if (snapshot.environment.distributions.length === 0) {
        throw new EnvironmentError(
          `no installed distributions found in ${snapshot.environment.sitePackages.join(', ') || 'the environment'}; is that the server's site-packages?`,
        );
      }
      io.stdout.write(`${JSON.stringify(snapshot, null, 2)}\n`);
      setExit(0);
    });
}
