import { randomBytes } from 'node:crypto';
import { link, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { VigilError } from '../errors.js';
import { checkFolders } from './trusted-path.js';

/** The target exists and the caller did not ask to overwrite it. */
export class FileExistsError extends VigilError {}

export interface WriteFileAtomicOptions {
  /** Replace an existing file. Without it an existing file is never touched. */
  overwrite?: boolean;
  /** Permission bits of a new file (default 0o644, less the umask). */
  mode?: number;
}

/**
 * Writes a file so that readers see either nothing, the old file, or the whole new one: the data goes to a
 * temporary file in the same folder (same file system, so the rename is atomic), is flushed, then renamed.
 * Without `overwrite`, the temporary file is hard-linked to the target instead, which fails atomically if the
 * target exists, so a file that appears between a check and the write is never clobbered.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  // The rename replaces a link at `path` rather than follow it; a folder on the way must not be one either.
  checkFolders(path, 'the file');
  const temporary = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    const handle = await open(temporary, 'wx', options.mode ?? 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (options.overwrite === true) {
      await rename(temporary, path);
      return;
    }
    await linkOrRename(temporary, path);
  } catch (error) {
    throw toVigilError(error, path);
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

/** link() is the atomic no-clobber step; file systems without hard links fall back to check-then-rename. */
async function linkOrRename(temporary: string, path: string): Promise<void> {
  try {
    await link(temporary, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    const existing = await open(path, 'r').then(
      async (handle) => {
        await handle.close();
        return true;
      },
      () => false,
    );
    if (existing) throw Object.assign(new Error('file exists'), { code: 'EEXIST' });
    await rename(temporary, path);
  }
}

function toVigilError(error: unknown, path: string): VigilError {
  if (error instanceof VigilError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EEXIST') {
    return new FileExistsError(`${path} already exists; choose another name or ask to overwrite it`, {
      cause: error,
    });
  }
  const reason =
    code === 'ENOENT'
      ? 'its folder does not exist'
      : code === 'EACCES' || code === 'EPERM'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'ENOSPC'
            ? 'no space left on the device'
            : error instanceof Error
              ? error.message
              : String(error);
  return new VigilError(`cannot write ${path}: ${reason}`, { cause: error });
}
