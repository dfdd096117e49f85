import { closeSync, constants, fstatSync, ftruncateSync, openSync, writeFileSync, type Stats } from 'node:fs';
import { VigilError } from '../errors.js';
import { checkFolders, UnsafePathError, writerUid } from './trusted-path.js';
import { writeFileAtomic } from './write-file-atomic.js';

/**
 * Every file Vigil writes at a path a user named (`--log`, `--termination-log`, `--report`, `--metrics-file`)
 * goes through here or writeFileAtomic, so that a root-run Vigil never writes through a link another user
 * could have planted: the folders on the way are checked (trusted-path.ts), and the file itself is either
 * replaced by a rename (a link there is replaced, not followed) or opened with O_NOFOLLOW and checked on the
 * open descriptor to be a regular file with one name, owned by the writer when the writer is root.
 */

/** Why an opened file must not be written, or null. Root writes only its own files: another user's could be a hard link. */
function refuseFile(info: Stats, uid: number | null): string | null {
  if (!info.isFile()) return 'is not a regular file; give a file';
  if (info.nlink > 1) return `has ${info.nlink} names (hard links): refused, give a file of one name`;
  if (uid === 0 && info.uid !== 0)
    return `is owned by uid ${info.uid}, not by root that runs vigil: refused, remove it or give another path`;
  return null;
}

/**
 * Opens `path` to append to, creating it (mode 0644 less the umask): never through a link, never a FIFO
 * (whose open would block) or a device other than /dev/null. Returns the descriptor.
 */
export function openForAppend(path: string, what: string): number {
  if (path === '/dev/null') return openSync(path, 'a');
  checkFolders(path, what);
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_WRONLY |
        constants.O_APPEND |
        constants.O_CREAT |
        constants.O_NOFOLLOW |
        constants.O_NONBLOCK,
      0o644,
    );
  } catch (error) {
    throw refusedOpen(error, path, what);
  }
  const why = checkOpened(fd);
  if (why === null) return fd;
  closeSync(fd);
  throw new UnsafePathError(`${what} ${path} ${why}`);
}

/**
 * Replaces `path` whole: a temporary file beside it and a rename. Where the rename cannot be done (Kubernetes
 * bind-mounts /dev/termination-log, a file in a folder the writer cannot create files in), the existing file
 * is opened without following a link, checked, emptied and written.
 */
export async function replaceFile(path: string, data: string | Uint8Array, what: string): Promise<void> {
  checkFolders(path, what);
  try {
    await writeFileAtomic(path, data, { overwrite: true });
    return;
  } catch (error) {
    const code = errorCode(error instanceof VigilError ? error.cause : error);
    if (!['EBUSY', 'EXDEV', 'EACCES', 'EPERM', 'EROFS'].includes(code)) throw error;
  }
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw refusedOpen(error, path, what);
  }
  try {
    const why = checkOpened(fd);
    if (why !== null) throw new UnsafePathError(`${what} ${path} ${why}`);
    ftruncateSync(fd, 0);
    writeFileSync(fd, data);
  } finally {
    closeSync(fd);
  }
}

function checkOpened(fd: number): string | null {
  try {
    return refuseFile(fstatSync(fd), writerUid());
  } catch (error) {
    return `cannot be checked (${errorCode(error)})`;
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
}

/** Why a file to write could not be opened, said for the user. */
function refusedOpen(error: unknown, path: string, what: string): UnsafePathError {
  const code = errorCode(error);
  // ENXIO: a FIFO with no reader (opened without blocking) or a socket.
  if (code === 'ENXIO') return new UnsafePathError(`${what} ${path} is not a regular file; give a file`);
  if (code === 'ELOOP')
    return new UnsafePathError(`${what} ${path} is a link: refused, vigil writes no file through a link`);
  return new UnsafePathError(`cannot write ${what} ${path}: ${code}`, { cause: error });
}
