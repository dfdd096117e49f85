import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { USER_RULE_YAML } from '../helpers/user-rule.js';

// The built CLI (`npm test` builds it first), run as users run it.
const BIN = resolve(import.meta.dirname, '../../dist/cli/bin.js');
const INCIDENT = resolve(import.meta.dirname, '../../examples/vllm-kimi-k25-flashinfer-mismatch.journal.log');
const root = mkdtempSync(join(tmpdir(), 'vigil-code-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function vigil(argv: string[], env: Record<string, string>) {
  const run = spawnSync(process.execPath, [BIN, ...argv], {
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: join(root, 'home'),
      XDG_CONFIG_HOME: join(root, 'config'),
      ...env,
    },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function cacheFiles(cacheHome: string): string[] {
  try {
    return readdirSync(join(cacheHome, 'vigil', 'code'));
  } catch {
    return [];
  }
}

describe('the code cache (every Node; Node 22 too, where a short log turns a flag off by implication)', () => {
  const diagnose = ['diagnose', INCIDENT, '--format', 'json'];
  const without = vigil(diagnose, { VIGIL_CODE_CACHE: '0', XDG_CACHE_HOME: join(root, 'unused') });

  it('changes nothing the command prints, first run or later', () => {
    expect(without.code).toBe(1);
    expect(JSON.parse(without.stdout)).toMatchObject({ verdict: 'failure' });
    expect(cacheFiles(join(root, 'unused'))).toEqual([]);
    const cacheHome = join(root, 'fresh');
    const first = vigil(diagnose, { XDG_CACHE_HOME: cacheHome });
    expect(first).toEqual(without);
    const files = cacheFiles(cacheHome);
    expect(files).toEqual([expect.stringMatching(/^[0-9a-f]{16}-v8-.*-diagnose\.bin$/)]);
    const file = join(cacheHome, 'vigil', 'code', files[0] ?? '');
    const written = statSync(file).mtimeMs;
    expect(vigil(diagnose, { XDG_CACHE_HOME: cacheHome })).toEqual(without);
    // Accepted, so not written again.
    expect(statSync(file).mtimeMs).toBe(written);
  });

  it('has bundles of ASCII alone, which it reads as Latin-1', () => {
    for (const name of ['cli.cjs', 'cli-diagnose.cjs']) {
      const bundle = readFileSync(resolve(import.meta.dirname, '../../dist/cli/chunks', name));
      expect(bundle.findIndex((byte) => byte > 0x7f)).toBe(-1);
    }
  });

  it("keeps diagnose's bundle and the whole CLI's caches side by side: one build, one hash", () => {
    const header = (name: string) =>
      readFileSync(resolve(import.meta.dirname, '../../dist/cli/chunks', name), 'latin1').split('\n')[0];
    expect(header('cli-diagnose.cjs')).toBe(header('cli.cjs'));
    // Smaller: the other commands are not in it.
    expect(
      statSync(resolve(import.meta.dirname, '../../dist/cli/chunks/cli-diagnose.cjs')).size,
    ).toBeLessThan(0.8 * statSync(resolve(import.meta.dirname, '../../dist/cli/chunks/cli.cjs')).size);
    const cacheHome = join(root, 'both');
    expect(vigil(diagnose, { XDG_CACHE_HOME: cacheHome })).toEqual(without);
    const help = vigil(['signatures', '--help'], { XDG_CACHE_HOME: cacheHome });
    expect(help.code).toBe(0);
    expect(vigil(['signatures', '--help'], { VIGIL_CODE_CACHE: '0' })).toEqual(help);
    expect(
      cacheFiles(cacheHome)
        .map((name) => name.replace(/^.*-/, ''))
        .sort(),
    ).toEqual(['diagnose.bin', 'signatures.bin']);
    // Each run that finds its cache leaves both.
    expect(vigil(diagnose, { XDG_CACHE_HOME: cacheHome })).toEqual(without);
    expect(cacheFiles(cacheHome)).toHaveLength(2);
  });

  it('replaces a cache V8 refuses, and still answers the same', () => {
    const cacheHome = join(root, 'corrupt');
    vigil(diagnose, { XDG_CACHE_HOME: cacheHome });
    const file = join(cacheHome, 'vigil', 'code', cacheFiles(cacheHome)[0] ?? '');
    writeFileSync(file, 'not bytecode');
    expect(vigil(diagnose, { XDG_CACHE_HOME: cacheHome })).toEqual(without);
    expect(readFileSync(file).length).toBeGreaterThan(100_000);
  });

  it('runs as before where the cache folder cannot be made', () => {
    const blocked = join(root, 'a-file');
    writeFileSync(blocked, '');
    expect(vigil(diagnose, { XDG_CACHE_HOME: blocked })).toEqual(without);
  });

  it('uses no folder or file that someone else can write', () => {
    const shared = join(root, 'shared');
    mkdirSync(join(shared, 'vigil', 'code'), { recursive: true });
    chmodSync(join(shared, 'vigil', 'code'), 0o777);
    expect(vigil(diagnose, { XDG_CACHE_HOME: shared })).toEqual(without);
    expect(cacheFiles(shared)).toEqual([]);

    const cacheHome = join(root, 'loose-file');
    vigil(diagnose, { XDG_CACHE_HOME: cacheHome });
    const file = join(cacheHome, 'vigil', 'code', cacheFiles(cacheHome)[0] ?? '');
    writeFileSync(file, 'planted');
    chmodSync(file, 0o666);
    // Not read: replaced by this run's own, writable by its owner alone.
    expect(vigil(diagnose, { XDG_CACHE_HOME: cacheHome })).toEqual(without);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file).length).toBeGreaterThan(100_000);
  });

  it('loads zod, yaml and re2js from their own scripts for user rules', () => {
    const rules = join(root, 'rules');
    rmSync(rules, { recursive: true, force: true });
    mkdirSync(rules);
    writeFileSync(join(rules, 'mine.yaml'), USER_RULE_YAML);
    const log = join(root, 'boom.log');
    writeFileSync(log, 'INFO starting\nRuntimeError: boom kaboom\n');
    const argv = ['diagnose', log, '--rules', rules, '--format', 'json'];
    const plain = vigil(argv, { VIGIL_CODE_CACHE: '0' });
    expect(JSON.parse(plain.stdout)).toMatchObject({ signature: { id: 'my-own-rule' } });
    const cacheHome = join(root, 'rules-cache');
    expect(vigil(argv, { XDG_CACHE_HOME: cacheHome })).toEqual(plain);
    expect(cacheFiles(cacheHome)).toEqual([expect.stringMatching(/-diagnose\.bin$/)]);
    expect(vigil(argv, { XDG_CACHE_HOME: cacheHome })).toEqual(plain);
  });

  it("loads only the Node modules the incident's diagnosis uses, and runs bin.js as CommonJS", () => {
    // What Node loaded, as it says at exit (process.moduleLoadList), written by a script run before bin.js.
    const preload = join(root, 'list-modules.cjs');
    const list = join(root, 'modules.txt');
    writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));`,
    );
    const run = spawnSync(process.execPath, ['--require', preload, BIN, ...diagnose], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: join(root, 'home'), XDG_CACHE_HOME: join(root, 'modules') },
    });
    expect(run.status).toBe(1);
    const loaded = readFileSync(list, 'utf8').split('\n');
    expect(loaded).toContain('NativeModule vm');
    // Imported by the ssh, container and supervision code a diagnosis of a file never runs.
    for (const name of ['child_process', 'zlib', 'worker_threads', 'dgram', 'fs/promises'])
      expect(loaded).not.toContain(`NativeModule ${name}`);
    expect(loaded.filter((name) => name.startsWith('NativeModule internal/modules/esm/translators'))).toEqual(
      [],
    );
  });
});
