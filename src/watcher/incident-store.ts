import { constants } from 'node:fs';
import { access, mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import { emptyIncidentState, type IncidentState } from '../incidents/index.js';
import { writeFileAtomic } from '../system/write-file-atomic.js';

/** Each incident's files are capped: a runaway excerpt or page must not fill the disk over days. */
export const INCIDENT_FILE_LIMIT = 2 * 1024 * 1024;
const EXCERPT_LIMIT = 64 * 1024;

/** `$XDG_STATE_HOME/vigil/incidents`, else `~/.local/state/vigil/incidents`. */
export function defaultStateDir(env: Record<string, string | undefined>): string | null {
  const base = env.XDG_STATE_HOME || (env.HOME ? join(env.HOME, '.local', 'state') : null);
  return base === null ? null : join(base, 'vigil', 'incidents');
}

export interface IncidentFiles {
  diagnosis: string;
  page: string;
  excerpt: string;
}

/**
 * The watcher's state folder: `state.json` (the incidents and the starts already counted) and a folder
 * per incident (`diagnosis.json`, `page.html`, `excerpt.log`). Every file is written whole (a temporary
 * file and a rename), so a watcher killed mid-write leaves the old file or the new one.
 */
export class IncidentStore {
  constructor(readonly dir: string) {}

  /** Makes the folder and checks it can be written, before the watch begins: one line and exit 2 if not. */
  async open(): Promise<IncidentState> {
    try {
      await mkdir(this.dir, { recursive: true });
      await access(this.dir, constants.R_OK | constants.W_OK | constants.X_OK);
    } catch (error) {
      throw new UsageError(
        `cannot use the state folder ${this.dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)} (choose another with --state-dir)`,
        { cause: error },
      );
    }
    return this.read();
  }

  /** The saved state; an empty one when there is none yet. */
  async read(): Promise<IncidentState> {
    let text: string;
    try {
      text = await readFile(join(this.dir, 'state.json'), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyIncidentState();
      throw new UsageError(`cannot read ${join(this.dir, 'state.json')}: ${String(error)}`, { cause: error });
    }
    try {
      const state = JSON.parse(text) as IncidentState;
      if (state.schemaVersion !== 1 || !Array.isArray(state.incidents)) throw new Error('not a state file');
      return state;
    } catch (error) {
      throw new UsageError(
        `${join(this.dir, 'state.json')} is not Vigil's incident state: ${String(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  async save(state: IncidentState): Promise<void> {
    await writeFileAtomic(join(this.dir, 'state.json'), `${JSON.stringify(state, null, 1)}\n`, {
      overwrite: true,
    });
    await this.prune(state);
  }

  filesOf(id: string): IncidentFiles {
    const folder = join(this.dir, safeId(id));
    return {
      diagnosis: join(folder, 'diagnosis.json'),
      page: join(folder, 'page.html'),
      excerpt: join(folder, 'excerpt.log'),
    };
  }

  async writeIncident(
    id: string,
    content: { diagnosis: string; page: string; excerpt: string },
  ): Promise<void> {
    const files = this.filesOf(id);
    await mkdir(join(this.dir, safeId(id)), { recursive: true });
    await writeFileAtomic(files.diagnosis, capText(content.diagnosis, INCIDENT_FILE_LIMIT), {
      overwrite: true,
    });
    await writeFileAtomic(files.page, capText(content.page, INCIDENT_FILE_LIMIT), { overwrite: true });
    await writeFileAtomic(files.excerpt, tailText(content.excerpt, EXCERPT_LIMIT), { overwrite: true });
  }

  async readDiagnosis(id: string): Promise<string | null> {
    return readFile(this.filesOf(id).diagnosis, 'utf8').catch(() => null);
  }

  /** Folders of incidents the state no longer holds (past the bound) are removed. */
  private async prune(state: IncidentState): Promise<void> {
    const kept = new Set(state.incidents.map((incident) => safeId(incident.id)));
    const entries = await readdir(this.dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isDirectory() && !kept.has(entry.name))
        await rm(join(this.dir, entry.name), { recursive: true, force: true });
    }
  }
}

/** An id as a folder name: never `..` or a slash, whatever a hand-edited state file says. */
function safeId(id: string): string {
  const clean = id.replace(/[^A-Za-z0-9._-]/g, '_');
  return clean === '' || /^\.+$/.test(clean) ? '_' : clean;
}

function capText(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[cut at ${max} characters]\n`;
}

function tailText(text: string, max: number): string {
  return text.length <= max ? text : `[first ${text.length - max} characters left out]\n${text.slice(-max)}`;
}
