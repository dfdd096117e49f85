import type { Command } from 'commander';
import { parseServerFlags } from '../../engines/server-flags.js';
import { UsageError } from '../../errors.js';
import { ENGINE_PROGRESS, engineOfCommand } from '../../progress/index.js';
import {
  deriveProbeSettings,
  historyKey,
  historyPath,
  parseHealthUrl,
  readHistory,
  renderKubeProbes,
  startsOf,
} from '../../supervision/index.js';
import type { CliIo } from '../io.js';
import type { SetExit } from './index.js';
import { COMMAND_SUMMARIES } from './summaries.js';

interface ProbeConfigFlags {
  kube?: boolean;
  health?: string;
  port?: string;
}

export function registerProbeConfig(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('probe-config')
    .description(COMMAND_SUMMARIES['probe-config'].description)
    .usage('--kube [options] -- COMMAND [ARGS...]')
    .argument('<command>', 'the server program, as `vigil run` started it')
    .argument('[args...]', 'its arguments')
    .option('--kube', 'print the probes of a Kubernetes container spec (YAML)')
    .option('--health <url>', 'the liveness path and port, e.g. http://127.0.0.1:8000/health')
    .option('--port <n>', 'the server’s port (default: its --port flag, else 8000)')
    .addHelpText(
      'after',
      '\nThe startup probe’s window (failureThreshold x periodSeconds) lies above the slowest start that\n' +
        '`vigil run` recorded for the same command line, with half as much again to spare.\n\n' +
        'Example:\n  vigil probe-config --kube -- vllm serve Qwen/Qwen2.5-7B-Instruct --port 8000\n',
    )
    .action(async (command: string, args: string[], flags: ProbeConfigFlags) => {
      if (flags.kube !== true) throw new UsageError('say which probes to print: --kube');
      const health = flags.health === undefined ? null : parseHealthUrl(flags.health);
      const port = parsePort(
        flags.port ?? (health?.port || undefined) ?? serverPort([command, ...args]) ?? '8000',
      );
      const history = startsOf(await readHistory(historyPath(io.env)), historyKey(command, args));
      const engine = engineOfCommand([command, ...args]);
      const modelList = ENGINE_PROGRESS.find((spec) => spec.engine === engine)?.modelList;
      const livePath = health?.pathname ?? '/health';
      io.stdout.write(
        renderKubeProbes(deriveProbeSettings(history), {
          livePath,
          readyPath: modelList ?? livePath,
          port,
        }),
      );
      setExit(0);
    });
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new UsageError(`--port ${JSON.stringify(text)} is not a port; use a number from 1 to 65535`);
  }
  return port;
}

/** The server's own --port as written (an unusable one too, so that parsePort says what is wrong with it). */
function serverPort(argv: readonly string[]): string | undefined {
  const flags = parseServerFlags(argv);
  if (flags.port !== null) return String(flags.port);
  return flags.invalid.find((entry) => entry.flag.startsWith('--port'))?.value;
}
