import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  lchownSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AS_ROOT, OTHER_UID, runBin, tempDir } from './helpers.js';

// Issue 31, item 1: the V8 code cache is checked at start and written at exit, where it also deletes the
// entries of other builds. A user who owns a folder above it (a shared or /tmp HOME, `sudo -E`, an NFS home)
// swaps the cache folder for a link meanwhile, and root empties the folder it points to. The cache must be
// off wherever another user could change the path to it.

const INCIDENT = resolve(import.meta.dirname, '../../examples/vllm-kimi-k25-flashinfer-mismatch.journal.log');
// The module itself, through tsx: dist/cli/code-cache.js is not loaded on its own (bin.js is its bundle).
const CODE_CACHE = resolve(import.meta.dirname, '../../src/cli/code-cache.ts');
const BUNDLE = resolve(import.meta.dirname, '../../dist/cli/chunks/cli.cjs');
const VICTIM_FILES = ['90-admins', 'id_ed25519'];

/** A root-only folder shaped like the cache's own (`<victim>/code`), full of files that must stay. */
function victim(dir: string): string {
  const folder = join(dir, 'victim');
  mkdirSync(join(folder, 'code'), { recursive: true, mode: 0o700 });
  chmodSync(join(folder, 'code'), 0o700);
  for (const name of VICTIM_FILES) writeFileSync(join(folder, 'code', name), 'keep\n', { mode: 0o600 });
  return folder;
}

function diagnoseWithCache(dir: string, cacheHome: string) {
  return runBin(['diagnose', INCIDENT, '--format', 'json'], {
    env: { HOME: dir, XDG_CACHE_HOME: cacheHome, VIGIL_CODE_CACHE: '1' },
  });
}

describe('the code cache is off where another user could change the path to it', () => {
  it('a link planted in a folder others can write: nothing in its target is deleted or written', async () => {
    const dir = tempDir();
    const target = victim(dir);
    const cacheHome = join(dir, 'shared-cache');
    mkdirSync(cacheHome);
    chmodSync(cacheHome, 0o777);
    symlinkSync(target, join(cacheHome, 'vigil'));
    if (AS_ROOT) lchownSync(join(cacheHome, 'vigil'), OTHER_UID, OTHER_UID);
    const result = await diagnoseWithCache(dir, cacheHome);
    expect(result.code).toBe(1);
    expect(readdirSync(join(target, 'code')).sort()).toEqual(VICTIM_FILES);
  });

  it.skipIf(!AS_ROOT)('as root, a HOME another user owns (sudo -E): no cache at all', async () => {
    const dir = tempDir();
    const target = victim(dir);
    const home = join(dir, 'user-home');
    mkdirSync(join(home, '.cache'), { recursive: true });
    chownSync(home, OTHER_UID, OTHER_UID);
    chownSync(join(home, '.cache'), OTHER_UID, OTHER_UID);
    symlinkSync(target, join(home, '.cache', 'vigil'));
    lchownSync(join(home, '.cache', 'vigil'), OTHER_UID, OTHER_UID);
    const result = await runBin(['diagnose', INCIDENT, '--format', 'json'], {
      env: { HOME: home, VIGIL_CODE_CACHE: '1' },
    });
    expect(result.code).toBe(1);
    expect(readdirSync(join(target, 'code')).sort()).toEqual(VICTIM_FILES);
  });

  it('the folder swapped for a link between the start and the save: the target keeps its files', () => {
    const dir = tempDir();
    const target = victim(dir);
    const cacheHome = join(dir, 'shared-cache');
    mkdirSync(join(cacheHome, 'vigil', 'code'), { recursive: true, mode: 0o700 });
    chmodSync(cacheHome, 0o777);
    // The run loads the cache, the other user swaps the folder while the command runs, the run saves.
    const script = `
      import { renameSync, symlinkSync } from 'node:fs';
      import { loadCachedCli } from ${JSON.stringify(CODE_CACHE)};
      const cached = loadCachedCli(${JSON.stringify(BUNDLE)}, { XDG_CACHE_HOME: ${JSON.stringify(cacheHome)} }, 'diagnose');
      renameSync(${JSON.stringify(join(cacheHome, 'vigil'))}, ${JSON.stringify(join(cacheHome, 'moved'))});
      symlinkSync(${JSON.stringify(target)}, ${JSON.stringify(join(cacheHome, 'vigil'))});
      cached?.save();
      process.stdout.write(cached === null ? 'off' : 'on');
    `;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('off');
    expect(readdirSync(join(target, 'code')).sort()).toEqual(VICTIM_FILES);
  });

  it('still caches in a folder of this user alone, and deletes only its own files of other builds', async () => {
    const dir = tempDir();
    const cacheHome = join(dir, 'cache');
    const code = join(cacheHome, 'vigil', 'code');
    mkdirSync(code, { recursive: true, mode: 0o700 });
    // An old build's bytecode goes; a file of another name, and a link with a cache file's name, stay.
    const old = '0000000000000000-v8-1.0-x64-diagnose.bin';
    writeFileSync(join(code, old), 'old', { mode: 0o600 });
    writeFileSync(join(code, 'notes.txt'), 'mine', { mode: 0o600 });
    symlinkSync('/etc/hostname', join(code, '1111111111111111-v8-1.0-x64-check.bin'));
    const result = await diagnoseWithCache(dir, cacheHome);
    expect(result.code).toBe(1);
    const files = readdirSync(code);
    expect(files).toContain('notes.txt');
    expect(files).toContain('1111111111111111-v8-1.0-x64-check.bin');
    expect(files).not.toContain(old);
    expect(files.filter((name) => name.endsWith('-diagnose.bin'))).toHaveLength(1);
  });
});
