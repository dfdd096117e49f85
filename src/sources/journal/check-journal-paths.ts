import { stat } from 'node:fs/promises';
import { SourceError } from '../../errors.js';
import { describeReadError } from '../describe-read-error.js';

export interface UnitJournalSpec {
  unit: string;
  journalFile?: string[];
  journalDir?: string;
  since?: string;
}

/** Our own check gives `cannot read PATH: no such file` where journalctl says only "No such file". */
export async function checkJournalPaths(spec: UnitJournalSpec): Promise<void> {
  const paths = [...(spec.journalFile ?? []).map((path) => ({ path, folder: false }))];
  if (spec.journalDir !== undefined) paths.push({ path: spec.journalDir, folder: true });
  for (const { path, folder } of paths) {
    try {
      const info = await stat(path);
      if (folder && !info.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
      if (!folder && info.isDirectory()) throw Object.assign(new Error('folder'), { code: 'EISDIR' });
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOTDIR' && folder
          ? 'not a folder'
          : describeReadError(error);
      throw new SourceError(`cannot read ${path}: ${reason}`, { cause: error });
    }
  }
}
