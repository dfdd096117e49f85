import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { EnvironmentError, UsageError } from '../errors.js';
import type { MarkerEnvironment } from './evaluate-marker.js';
import { describeHostMarkers } from './host-markers.js';
import { parsePyvenvCfg } from './parse-pyvenv-cfg.js';
import { queryInterpreter } from './query-interpreter.js';

export interface EnvironmentOptions {
  /** An interpreter to ask once (with -I) for its search path and marker values. */
  python?: string;
  /** A virtual environment (or conda prefix) read from files only. */
  venv?: string;
  /** site-packages folders read as they are; markers use this platform and the version in the path. */
  sitePackages?: string[];
  /** Read no Python environment: the GPU, host and model checks only (a server that is not Python). */
  skipPython?: boolean;
  /** Where $VIRTUAL_ENV and PATH come from (default process.env). */
  env?: Record<string, string | undefined>;
  cwd?: string;
}

export interface EnvironmentLocation {
  python: string | null;
  pythonVersion: string | null;
  sitePackages: string[];
  markers: MarkerEnvironment;
}

/** Finds the folders to read: --site-packages, --python, --venv, $VIRTUAL_ENV, else python3 on PATH. */
export async function locateEnvironment(options: EnvironmentOptions): Promise<EnvironmentLocation> {
  const given = [options.python, options.venv, options.sitePackages?.length ? 'x' : undefined];
  if (given.filter((value) => value !== undefined).length > 1) {
    throw new UsageError('give only one of --python, --venv and --site-packages');
  }
  if (options.skipPython === true) {
    if (given.some((value) => value !== undefined)) {
      throw new UsageError(
        '--skip-python reads no environment: leave out --python, --venv and --site-packages',
      );
    }
    return { python: null, pythonVersion: null, sitePackages: [], markers: describeHostMarkers(null) };
  }
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  if (options.sitePackages !== undefined && options.sitePackages.length > 0) {
    const folders = options.sitePackages.map((folder) =>
      requireFolder(resolve(cwd, folder), '--site-packages'),
    );
    const version = folders.map(readVersionNear).find((found) => found !== null) ?? null;
    return {
      python: null,
      pythonVersion: version,
      sitePackages: folders,
      markers: describeHostMarkers(version),
    };
  }
  if (options.venv !== undefined) return readVenv(requireFolder(resolve(cwd, options.venv), '--venv'));
  const virtualEnv = env.VIRTUAL_ENV;
  if (
    options.python === undefined &&
    virtualEnv !== undefined &&
    virtualEnv !== '' &&
    existsSync(virtualEnv)
  ) {
    return readVenv(resolve(virtualEnv));
  }
  const facts = await queryInterpreter(options.python ?? 'python3', { ...process.env, ...env }, cwd);
  return {
    python: facts.executable,
    pythonVersion: facts.pythonVersion,
    sitePackages: facts.path,
    markers: facts.markers,
  };
}

function readVenv(prefix: string): EnvironmentLocation {
  const cfgPath = join(prefix, 'pyvenv.cfg');
  const cfg = existsSync(cfgPath) ? parsePyvenvCfg(readFileSync(cfgPath, 'utf8')) : new Map<string, string>();
  const sitePackages = findSitePackages(prefix);
  if (sitePackages.length === 0) {
    throw new EnvironmentError(`${prefix} has no lib/pythonX.Y/site-packages; is it a virtual environment?`);
  }
  const version =
    cleanPythonVersion(cfg.get('version_info') ?? cfg.get('version')) ??
    readVersionNear(sitePackages[0] ?? '');
  const home = cfg.get('home');
  if (cfg.get('include-system-site-packages') === 'true' && home !== undefined) {
    // The base interpreter's site-packages follow the venv's own on sys.path.
    sitePackages.push(...findSitePackages(dirname(home)));
  }
  const python = [join(prefix, 'bin', 'python'), join(prefix, 'Scripts', 'python.exe')].find((p) =>
    existsSync(p),
  );
  return {
    python: python ?? null,
    pythonVersion: version,
    sitePackages,
    markers: describeHostMarkers(version),
  };
}

/** lib/pythonX.Y/site-packages (and lib64, Windows Lib) under a prefix, without symlinked duplicates. */
function findSitePackages(prefix: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  for (const lib of ['lib', 'lib64']) {
    let names: string[] = [];
    try {
      names = readdirSync(join(prefix, lib)).filter((name) => /^python\d+\.\d+t?$/.test(name));
    } catch {
      continue;
    }
    for (const name of names.sort()) addFolder(join(prefix, lib, name, 'site-packages'), found, seen);
  }
  addFolder(join(prefix, 'Lib', 'site-packages'), found, seen);
  return found;
}

function addFolder(folder: string, found: string[], seen: Set<string>): void {
  try {
    const real = realpathSync(folder);
    if (seen.has(real) || !statSync(real).isDirectory()) return;
    seen.add(real);
    found.push(folder);
  } catch {
    // Not there: nothing to add.
  }
}

/** The Python version from `…/lib/python3.11/site-packages` or a pyvenv.cfg three levels up. */
function readVersionNear(sitePackages: string): string | null {
  const fromPath = /python(\d+\.\d+)t?$/.exec(basename(dirname(sitePackages)));
  const cfgPath = join(sitePackages, '..', '..', '..', 'pyvenv.cfg');
  if (existsSync(cfgPath)) {
    const cfg = parsePyvenvCfg(readFileSync(cfgPath, 'utf8'));
    const version = cleanPythonVersion(cfg.get('version_info') ?? cfg.get('version'));
    if (version !== null) return version;
  }
  return fromPath?.[1] ?? null;
}

function requireFolder(folder: string, flag: string): string {
  try {
    if (statSync(folder).isDirectory()) return folder;
  } catch {
    // Reported below.
  }
  throw new EnvironmentError(`${flag} ${folder}: no such folder`);
}

/** `3.11.7.final.0` (virtualenv) → `3.11.7`; null when there is no version. */
function cleanPythonVersion(text: string | undefined): string | null {
  return /^\d+\.\d+(?:\.\d+)?/.exec(text ?? '')?.[0] ?? null;
}
