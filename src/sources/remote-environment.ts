import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EnvironmentError, SourceError } from '../errors.js';
import type { CommandRunner } from '../system/run-command.js';

// The files a check reads, as find(1) patterns: each .dist-info's METADATA, RECORD, INSTALLER and
// direct_url.json, each .egg-info's PKG-INFO and requires.txt (or the .egg-info file), pyvenv.cfg,
// torch/version.py and flashinfer's _build_meta.py.
const WANTED = [
  '*.dist-info/METADATA',
  '*.dist-info/RECORD',
  '*.dist-info/INSTALLER',
  '*.dist-info/direct_url.json',
  '*.egg-info/PKG-INFO',
  '*.egg-info/requires.txt',
  '*.egg-info',
  '*/torch/version.py',
  '*/flashinfer*/_build_meta.py',
  '*/pyvenv.cfg',
];

/**
 * The few files a fix is aimed with (environment/read-crashed-environment.ts): who installed, torch's CUDA,
 * a uv venv, a conda prefix, PEP 668's marker. A diagnosis over --ssh copies only these, not every RECORD.
 */
export const FIX_FACT_FILES: readonly string[] = [
  '*.dist-info/INSTALLER',
  '*/torch/version.py',
  '*/pyvenv.cfg',
  '*/conda-meta/history',
  '*/EXTERNALLY-MANAGED',
];

/**
 * find's arguments that print, under each root, every site-packages folder (`folder\nPATH\n`) and every
 * wanted file as `PATH\nSIZE\n` and its bytes: no shell, no pip, no Python, nothing copied but these.
 * Five levels reach PREFIX/lib/pythonX.Y/site-packages/NAME.dist-info/METADATA.
 */
export function listingArguments(roots: readonly string[], wanted: readonly string[] = WANTED): string[] {
  const files = wanted.flatMap((pattern, index) => [...(index === 0 ? [] : ['-o']), '-path', pattern]);
  return [
    ...roots.map((root) => (root.startsWith('-') ? `./${root}` : root)),
    '-maxdepth',
    '5',
    '(',
    '-type',
    'd',
    '(',
    '-name',
    'site-packages',
    '-o',
    '-name',
    'dist-packages',
    ')',
    '-printf',
    'folder\\n%p\\n',
    ')',
    '-o',
    '(',
    '-type',
    'f',
    '(',
    ...files,
    ')',
    '-printf',
    '%p\\n%s\\n',
    '-exec',
    'cat',
    '--',
    '{}',
    ';',
    ')',
  ];
}

/** sys.path and the version of an interpreter on the other host (asked with -I, as locally). */
const PYTHON_QUERY =
  "import sys, json; print(json.dumps({'version': '%d.%d.%d' % sys.version_info[:3], 'path': [p for p in sys.path if p]}))";

export interface RemoteEnvironmentRequest {
  python?: string;
  venv?: string;
  sitePackages?: string[];
}

/** Where the files of the other host's environment now lie here, and how to undo the mirror. */
export interface MirroredEnvironment {
  /** The request with every remote path moved under the mirror. */
  local: RemoteEnvironmentRequest;
  /** The mirror's folder, to take out of the paths a report shows. */
  root: string;
  remove(): Promise<void>;
}

interface Entry {
  path: string;
  bytes: Buffer;
}

/** Pure: the listing's files, folders and missing roots. */
export function parseListing(data: Buffer): { files: Entry[]; folders: string[]; missing: string[] } {
  const files: Entry[] = [];
  const folders: string[] = [];
  const missing: string[] = [];
  let at = 0;
  const line = (): string | null => {
    const end = data.indexOf(0x0a, at);
    if (end < 0) return null;
    const text = data.subarray(at, end).toString('utf8');
    at = end + 1;
    return text;
  };
  for (;;) {
    const first = line();
    if (first === null) break;
    const second = line();
    if (second === null) break;
    if (first === 'missing') missing.push(second);
    else if (first === 'folder') folders.push(second);
    else {
      const size = Number(second);
      if (!Number.isInteger(size) || size < 0)
        throw new SourceError('the remote listing is garbled; is the remote shell POSIX?');
      files.push({ path: first, bytes: data.subarray(at, at + size) });
      at += size;
    }
  }
  return { files, folders, missing };
}

/**
 * Copies the metadata files of an environment on another host into a temp folder that mirrors their
 * paths, so the usual readers run on them unchanged. `--python` asks the remote interpreter for its
 * sys.path first; `--venv` and `--site-packages` are read from their files alone.
 */
export async function mirrorRemoteEnvironment(
  request: RemoteEnvironmentRequest,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
  wanted: readonly string[] = WANTED,
): Promise<MirroredEnvironment> {
  const roots = await remoteRoots(request, runner, env);
  // find exits 1 when a root is missing; that root is named on its stderr.
  const stream = await runner.start('find', listingArguments(roots, wanted), {
    timeoutMs: 120_000,
    env,
    label: 'find',
    okCodes: [1],
  });
  const parts: Buffer[] = [];
  for await (const chunk of stream.chunks) parts.push(Buffer.from(chunk));
  const listing = parseListing(Buffer.concat(parts));
  const stderr = stream.stderrText();
  listing.missing.push(...roots.filter((root) => stderr.includes(`'${root}': No such file`)));
  const flag = request.venv !== undefined ? '--venv' : '--site-packages';
  if (listing.missing.length > 0 && request.python === undefined) {
    throw new EnvironmentError(
      `${flag} ${listing.missing[0] ?? ''}: no such folder on ${runner.host ?? 'this host'}`,
    );
  }
  const root = await mkdtemp(join(tmpdir(), 'vigil-remote-env-'));
  try {
    for (const folder of [...roots, ...listing.folders]) await mkdir(join(root, folder), { recursive: true });
    for (const file of listing.files) {
      const target = join(root, file.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.bytes);
    }
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const under = (path: string): string => join(root, path);
  const local: RemoteEnvironmentRequest =
    request.venv !== undefined ? { venv: under(request.venv) } : { sitePackages: roots.map(under) };
  return { local, root, remove: () => rm(root, { recursive: true, force: true }) };
}

async function remoteRoots(
  request: RemoteEnvironmentRequest,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
): Promise<string[]> {
  if (request.venv !== undefined) return [request.venv];
  if (request.sitePackages !== undefined && request.sitePackages.length > 0) return request.sitePackages;
  const python = request.python ?? 'python3';
  const result = await runner.run(python, ['-I', '-c', PYTHON_QUERY], { timeoutMs: 30_000, env });
  if (result.code === 127) {
    throw new EnvironmentError(
      `${python} was not found on ${runner.host ?? 'this host'}; give --python PATH, --venv DIR or --site-packages DIR`,
    );
  }
  try {
    const facts = JSON.parse(result.stdout) as { path: string[] };
    return facts.path.filter((path) => /(?:site|dist)-packages$/.test(path));
  } catch (error) {
    throw new EnvironmentError(
      `${python} on ${runner.host ?? 'this host'} did not answer: ${result.stderr.trim().split('\n')[0] ?? ''}`,
      { cause: error },
    );
  }
}
