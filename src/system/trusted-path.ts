import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { VigilError } from '../errors.js';

/**
 * Whether a path's folders are safe for a privileged writer: another user could swap a folder on the way
 * for a link (`/home/svc/logs -> /etc/cron.d`) only where that user owns the folder holding it, or may write
 * to it. So every folder that is looked into on the way must be owned by root or the writer and writable by
 * no one else, or sticky (`/tmp`: others cannot rename or remove an entry they do not own) with the next
 * entry owned by root or the writer; a link on the way is followed only when root or the writer owns it.
 * This is the kernel's `protected_symlinks` rule, made stricter and applied whatever the sysctl says.
 */

/** The most links followed on one path, as the kernel's ELOOP limit. */
const MAX_LINKS = 40;

/** The user writes run as, or null where the platform has no user ids (nothing can be checked there). */
export function writerUid(): number | null {
  return process.getuid === undefined ? null : process.getuid();
}

function trustedOwner(info: Stats, uid: number): boolean {
  return info.uid === 0 || info.uid === uid;
}

/** Why a folder's entries could be changed by another user, or null when they cannot. */
function openToOthers(info: Stats, uid: number, next: Stats | null): string | null {
  if (!trustedOwner(info, uid)) return `is owned by uid ${info.uid}`;
  if ((info.mode & 0o022) === 0) return null;
  const sticky = (info.mode & 0o1000) !== 0;
  if (sticky && (next === null || trustedOwner(next, uid))) return null;
  if (sticky && next !== null)
    return `is shared (sticky) and the entry on the way in it is owned by uid ${next.uid}`;
  return 'can be written by other users';
}

function lstatOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/**
 * Why `folder` (an absolute path) cannot be trusted to stay what it is now, or null when it can: every folder
 * looked into on the way to it is checked, not the folder itself (whose entries the caller checks on its
 * own: a file opened without following links, or renamed over). A part that does not exist yet ends the
 * walk (the caller creates it, inside a folder that was checked).
 */
export function findUntrustedFolder(folder: string, uid: number): string | null {
  let pending = resolve(folder)
    .split(sep)
    .filter((part) => part !== '');
  let current = '/';
  let currentInfo = lstatSync(current);
  let links = 0;
  while (pending.length > 0) {
    const [part, ...rest] = pending as [string, ...string[]];
    const next = join(current, part);
    const nextInfo = lstatOrNull(next);
    const why = openToOthers(currentInfo, uid, nextInfo);
    if (why !== null) return `${current} ${why}`;
    if (nextInfo === null) return null;
    if (nextInfo.isSymbolicLink()) {
      if (!trustedOwner(nextInfo, uid)) return `${next} is a link owned by uid ${nextInfo.uid}`;
      if (++links > MAX_LINKS) return `${next} has too many links on the way`;
      const target = readlinkSync(next);
      const targetParts = target.split(sep).filter((piece) => piece !== '');
      if (isAbsolute(target)) {
        current = '/';
        currentInfo = lstatSync(current);
      }
      pending = [...targetParts, ...rest];
      continue;
    }
    if (part === '.') {
      pending = rest;
      continue;
    }
    if (part === '..') {
      // Only reached through folders checked above: going up stays on a checked path.
      current = resolve(current, '..');
      currentInfo = lstatSync(current);
      pending = rest;
      continue;
    }
    if (!nextInfo.isDirectory()) return `${next} is not a folder`;
    current = next;
    currentInfo = nextInfo;
    pending = rest;
  }
  return null;
}

/** A path that another user could redirect, or a file that is not what a log may be. */
export class UnsafePathError extends VigilError {}

/** Throws when a folder on the way to `path` could be swapped by another user. */
export function checkFolders(path: string, what: string): void {
  const uid = writerUid();
  if (uid === null) return;
  let why: string | null;
  try {
    why = findUntrustedFolder(dirname(resolve(path)), uid);
  } catch (error) {
    throw new UnsafePathError(`cannot write ${what} ${path}: ${errorCode(error)}`, { cause: error });
  }
  if (why !== null) {
    throw new UnsafePathError(
      `${what} ${path} refused: ${why}, so another user could point it elsewhere; give a path whose folders are root's or yours`,
    );
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? String(error);
}
