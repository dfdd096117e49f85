import { Help, type Command } from 'commander';
import type { CommandName } from './names.js';

/**
 * Each command as `vigil --help` lists it: the term (name, [options], arguments) and the description its
 * own module gives it too. Help of the whole program, or a mistyped name, needs no more than these, so
 * it loads no command's module (commands/index.ts). test/cli/version-and-help.test.ts holds this list to
 * the help the commands' own registration prints.
 */
export const COMMAND_SUMMARIES: Record<CommandName, { term: string; description: string }> = {
  diagnose: {
    term: 'diagnose [options] [files...]',
    description: 'name the root cause of a crashed inference server from its log',
  },
  eval: {
    term: 'eval [options] <dirs...>',
    description: 'score diagnoses on a folder of labelled logs (NAME.log + NAME.json)',
  },
  signatures: {
    term: 'signatures [options]',
    description: 'list the failure signatures Vigil knows (built-in and your own rules)',
  },
  check: {
    term: 'check [options] [server-command...]',
    description:
      'catch what will crash the server before the model load: packages, GPU, port, disk, model config',
  },
  snapshot: {
    term: 'snapshot [options]',
    description: 'print each installed distribution’s name, version, installer and source as JSON',
  },
  diff: {
    term: 'diff [options] <old> <new>',
    description: 'show what was upgraded, downgraded, added and removed between two snapshots',
  },
  run: {
    term: 'run [options] <command> [args...]',
    description:
      'start an inference server, show its start-up progress, and explain a crash the moment it happens',
  },
  unit: {
    term: 'unit [options] <command> [args...]',
    description:
      'print a systemd unit that starts the server the careful way (GPU wait, restart limit, tokens)',
  },
  watch: {
    term: 'watch [options]',
    description:
      'follow a server that systemd, docker or Kubernetes runs: progress, then ready or why it failed',
  },
  'probe-config': {
    term: 'probe-config [options] <command> [args...]',
    description:
      'print Kubernetes startup, readiness and liveness probes sized from the measured start-ups of a command',
  },
  incidents: {
    term: 'incidents [options] [action] [id]',
    description: 'list the incidents `watch --follow` kept, show one, or print the path of its page',
  },
};

/** Adds each command as its summary alone: enough for the program's help and for suggesting a name. */
export function summarizeCommands(program: Command, names: readonly CommandName[]): void {
  for (const name of names) program.command(name).description(COMMAND_SUMMARIES[name].description);
  const terms = new Map(names.map((name) => [name, COMMAND_SUMMARIES[name].term]));
  program.configureHelp({
    subcommandTerm(this: Help, command: Command): string {
      return terms.get(command.name() as CommandName) ?? Help.prototype.subcommandTerm.call(this, command);
    },
  });
}
