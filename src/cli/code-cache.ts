import {
  accessSync,
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { Script, constants as vmConstants } from 'node:vm';
import { findUntrustedFolder, writerUid } from '../system/trusted-path.js';
import { COMMAND_NAMES } from './commands/names.js';
import type { runCli as RunCli } from './run-cli.js';

/**
 * V8's code cache, on every Node (Node 22's module.enableCompileCache serves only where this cannot: bin.ts):
 * the CLI as one CommonJS bundle (scripts/bundle-cli.mjs writes it, and `vigil diagnose`'s own without the
 * other commands, the build's hash on the first line of each), compiled with the
 * bytecode a previous run of the same command left in the user's cache folder. It spares compiling the
 * ~0.6 MB of code a command runs (a third of what a small diagnosis costs beyond Node's own start).
 */
export interface CachedCli {
  runCli: typeof RunCli;
  /** Writes the bytecode this run compiled when there was none usable; never throws. */
  save: () => void;
}

/** The first line of the bundle: `// vigil-cli <hash>`. */
const HEADER = /^\/\/ vigil-cli ([0-9a-f]{16})\n/;

/**
 * Loads the bundle with its cached bytecode; null when the cache cannot serve (no bundle beside this one,
 * the cache switched off with VIGIL_CODE_CACHE=0, or a cache folder that is not this user's alone, on a
 * path another user could change): the caller then imports the ES modules as before, which costs no more than a bundle compiled
 * without a cache would.
 */
export function loadCachedCli(bundle: string, env: NodeJS.ProcessEnv, command: string): CachedCli | null {
  if (env.VIGIL_CODE_CACHE === '0') return null;
  let source: string;
  try {
    // The bundle is ASCII (scripts/bundle-cli.mjs): Latin-1 reads it without decoding UTF-8.
    source = readFileSync(bundle, 'latin1');
  } catch {
    return null;
  }
  const hash = HEADER.exec(source)?.[1];
  const path = cacheFolder(env);
  if (hash === undefined || path === null) return null;
  // Vigil often runs as root, and the cache is code: only a folder and files of this user that no one else
  // can write are used (a `sudo -E` keeps another user's XDG_CACHE_HOME), on a path no one else can change.
  const folder = openFolder(path);
  if (folder === null) return null;
  const file = join(path, cacheName(hash, command));
  const cachedData = readCache(file);
  // The bundle is written as one function of CommonJS's arguments: compiled as it was read, not copied.
  const script = new Script(source, {
    filename: bundle,
    ...(cachedData === undefined ? {} : { cachedData }),
    // The bundle has no import() of its own (esbuild turns them into require()); this keeps one harmless.
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} as { runCli?: typeof RunCli } };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    createRequire(bundle),
    module,
    bundle,
    dirname(bundle),
  );
  const runCli = module.exports.runCli;
  if (typeof runCli !== 'function') {
    closeFolder(folder);
    return null;
  }
  const stale = cachedData === undefined || script.cachedDataRejected === true;
  const save = (): void => {
    if (stale && sameFolder(folder)) writeCache(folder.path, file, hash, script);
    closeFolder(folder);
  };
  return { runCli, save };
}

/** $XDG_CACHE_HOME/vigil/code, else ~/.cache/vigil/code; null when there is no home to put it in. */
export function cacheFolder(env: NodeJS.ProcessEnv): string | null {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'vigil', 'code');
  let home = env.HOME;
  if (home === undefined || !isAbsolute(home)) {
    try {
      home = homedir();
    } catch {
      return null;
    }
  }
  return isAbsolute(home) ? join(home, '.cache', 'vigil', 'code') : null;
}

/**
 * One file per bundle, V8 build and command: each command's file holds the code that command ran (help,
 * --version and a mistyped name share one).
 */
export function cacheName(hash: string, command: string): string {
  const name = (COMMAND_NAMES as readonly string[]).includes(command) ? command : 'other';
  return `${hash}-v8-${process.versions.v8}-${process.arch}-${name}.bin`;
}

function readCache(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    return info.isFile() && ownedAlone(info) ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The cache folder, held open from the start of a run to its end: the descriptor tells whether it was swapped. */
interface OpenFolder {
  path: string;
  fd: number;
  info: Stats;
}

/**
 * The cache folder, made if missing, when it is this user's own and writable and no other user can change
 * the path to it (each folder on the way root's or this user's, writable by no one else: trusted-path.ts);
 * null otherwise, and then there is no cache. The folders on the way are checked before anything is made.
 */
function openFolder(path: string): OpenFolder | null {
  const uid = writerUid();
  if (uid === null) return null;
  let fd: number | null = null;
  try {
    if (findUntrustedFolder(path, uid) !== null) return null;
    mkdirSync(path, { recursive: true, mode: 0o700 });
    // Made now: the parts just made are checked too.
    if (findUntrustedFolder(path, uid) !== null) return null;
    fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
    const info = fstatSync(fd);
    accessSync(path, constants.W_OK);
    if (info.isDirectory() && ownedAlone(info)) return { path, fd, info };
  } catch {
    // Not there, not a folder, or not ours: no cache.
  }
  if (fd !== null) closeSync(fd);
  return null;
}

/** The path still names the folder opened at the start (it cannot change unless root or this user did). */
function sameFolder(folder: OpenFolder): boolean {
  try {
    const now = lstatSync(folder.path);
    const held = fstatSync(folder.fd);
    return now.dev === held.dev && now.ino === held.ino && held.isDirectory() && ownedAlone(held);
  } catch {
    return false;
  }
}

function closeFolder(folder: OpenFolder): void {
  try {
    closeSync(folder.fd);
  } catch {
    // Already closed: nothing held.
  }
}

/** Owned by the user running vigil and writable by no one else. */
function ownedAlone(info: Stats): boolean {
  return info.uid === writerUid() && (info.mode & 0o022) === 0;
}

/** A name this cache writes: a bundle's bytecode, or its temporary file. */
const CACHE_ENTRY = /^[0-9a-f]{16}-v8-[^/]*\.bin(?:\.\d+\.tmp)?$/;

/**
 * Written under a temporary name and renamed, so a run that reads it meanwhile sees the old file or the new
 * one, never half of one. Files of other builds go: a folder holds one build's bytecode, not every build's
 * (a build's two bundles, the whole CLI and diagnose's own, carry the same hash: scripts/bundle-cli.mjs).
 */
function writeCache(folder: string, file: string, hash: string, script: Script): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    // wx: never through a file or link someone put at that name.
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600, flag: 'wx' });
    renameSync(temporary, file);
    // Only this cache's own files go, each checked to be a regular file of this user's: the folder and the
    // path to it were checked, so the name cannot lead elsewhere meanwhile.
    for (const name of readdirSync(folder)) {
      if (name.startsWith(`${hash}-`) || !CACHE_ENTRY.test(name)) continue;
      const entry = join(folder, name);
      const info = lstatSync(entry);
      if (info.isFile() && info.uid === writerUid()) rmSync(entry, { force: true });
    }
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Nothing was written, or it cannot be removed either: the next run tries again.
    }
  }
}
