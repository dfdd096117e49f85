import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../errors.js';
import type { Incident } from '../../incidents/index.js';
import { IncidentStore, defaultStateDir } from '../../watcher/index.js';
import type { CliIo } from '../io.js';
import type { SetExit } from './index.js';
import { COMMAND_SUMMARIES } from './summaries.js';

interface IncidentsFlags {
  stateDir?: string;
  json?: boolean;
}

export function registerIncidents(program: Command, io: CliIo, setExit: SetExit): void {
  program
    .command('incidents')
    .description(COMMAND_SUMMARIES.incidents.description)
    .argument('[action]', 'list (default), show ID (its JSON diagnosis), page ID (its HTML page’s path)')
    .argument('[id]', 'the incident, as list prints it')
    .option('--state-dir <dir>', 'the watcher’s state folder (default $XDG_STATE_HOME/vigil/incidents)')
    .option('--json', 'with list: the incidents as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  vigil incidents\n  vigil incidents show 20260303T101500Z-vllm-service-3f2a1b0c\n\n' +
        'Exit status: 0 no open incident, 1 one or more open, 2 for a usage or input error.\n',
    )
    .action(async (action: string | undefined, id: string | undefined, flags: IncidentsFlags) => {
      setExit(await incidents(action ?? 'list', id, flags, io));
    });
}

async function incidents(
  action: string,
  id: string | undefined,
  flags: IncidentsFlags,
  io: CliIo,
): Promise<number> {
  const dir = flags.stateDir === undefined ? defaultStateDir(io.env) : resolve(io.cwd, flags.stateDir);
  if (dir === null) throw new UsageError('no state folder: set XDG_STATE_HOME or HOME, or give --state-dir');
  const store = new IncidentStore(dir);
  const state = await store.read();
  if (action === 'list') {
    if (flags.json === true) io.stdout.write(`${JSON.stringify(state.incidents, null, 2)}\n`);
    else io.stdout.write(listIncidents(state.incidents));
    return state.incidents.some((incident) => incident.status === 'open') ? 1 : 0;
  }
  if (action !== 'show' && action !== 'page')
    throw new UsageError(`incidents: ${action} is not list, show or page`);
  if (id === undefined)
    throw new UsageError(`incidents ${action}: give the incident's id (vigil incidents lists them)`);
  const incident = state.incidents.find((each) => each.id === id || each.id.startsWith(id));
  if (incident === undefined) throw new UsageError(`no incident ${id} in ${dir}`);
  const files = store.filesOf(incident.id);
  if (action === 'page') {
    io.stdout.write(`${files.page}\n`);
    return 0;
  }
  const diagnosis = await readFile(files.diagnosis, 'utf8').catch(() => null);
  io.stdout.write(
    `${JSON.stringify({ incident, diagnosis: diagnosis === null ? null : (JSON.parse(diagnosis) as unknown) }, null, 2)}\n`,
  );
  return 0;
}

/** One line per incident, newest first: id, status, count, target, cause. */
function listIncidents(list: readonly Incident[]): string {
  if (list.length === 0) return 'no incidents\n';
  const rows = [...list].reverse().map((incident) => {
    const status = incident.status === 'open' ? 'OPEN' : 'resolved';
    return `${incident.id}  ${status.padEnd(8)}  ${String(incident.count).padStart(3)}x  ${incident.target}  ${incident.cause}`;
  });
  return `${rows.join('\n')}\n`;
}
