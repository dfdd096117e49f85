import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** One distribution to write as `<name>-<version>.dist-info` (or .egg-info). */
export interface DistributionSpec {
  name: string;
  version: string;
  requires?: string[];
  requiresPython?: string;
  providesExtra?: string[];
  installer?: string;
  directUrl?: Record<string, unknown>;
  /** RECORD rows: a path, or a path with its hash. The metadata files are added automatically. */
  files?: (string | { path: string; hash: string })[];
  /** Module files to write into site-packages, e.g. { 'torch/version.py': "cuda = '13.0'" }. */
  modules?: Record<string, string>;
  eggInfo?: boolean;
  /** Extra text after METADATA's headers (a long description). */
  description?: string;
}

export interface WrittenEnvironment {
  prefix: string;
  sitePackages: string;
}

/** A temporary folder, removed by the returned function. */
export function makeTempDir(prefix = 'vigil-check-'): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Writes a venv-shaped tree: pyvenv.cfg and lib/pythonX.Y/site-packages with each distribution. */
export function writeEnvironment(
  prefix: string,
  distributions: DistributionSpec[],
  python = '3.11.7',
): WrittenEnvironment {
  const minor = python.split('.').slice(0, 2).join('.');
  const sitePackages = join(prefix, 'lib', `python${minor}`, 'site-packages');
  mkdirSync(sitePackages, { recursive: true });
  writeFileSync(
    join(prefix, 'pyvenv.cfg'),
    `home = /usr/bin\ninclude-system-site-packages = false\nversion = ${python}\n`,
  );
  for (const distribution of distributions) writeDistribution(sitePackages, distribution);
  return { prefix, sitePackages };
}

export function writeDistribution(sitePackages: string, spec: DistributionSpec): string {
  const folderName = `${spec.name.replace(/[-.]/g, '_')}-${spec.version}.${spec.eggInfo ? 'egg-info' : 'dist-info'}`;
  const folder = join(sitePackages, folderName);
  mkdirSync(folder, { recursive: true });
  const headers = [
    'Metadata-Version: 2.1',
    `Name: ${spec.name}`,
    `Version: ${spec.version}`,
    ...(spec.requiresPython === undefined ? [] : [`Requires-Python: ${spec.requiresPython}`]),
    ...(spec.providesExtra ?? []).map((extra) => `Provides-Extra: ${extra}`),
    ...(spec.eggInfo ? [] : (spec.requires ?? []).map((requirement) => `Requires-Dist: ${requirement}`)),
  ];
  const metadata = `${headers.join('\n')}\n\n${spec.description ?? ''}`;
  if (spec.eggInfo) {
    writeFileSync(join(folder, 'PKG-INFO'), metadata);
    if (spec.requires !== undefined)
      writeFileSync(join(folder, 'requires.txt'), `${spec.requires.join('\n')}\n`);
  } else {
    writeFileSync(join(folder, 'METADATA'), metadata);
    writeFileSync(join(folder, 'INSTALLER'), `${spec.installer ?? 'pip'}\n`);
    if (spec.directUrl !== undefined)
      writeFileSync(join(folder, 'direct_url.json'), JSON.stringify(spec.directUrl));
    const rows = (spec.files ?? []).map((file) =>
      typeof file === 'string' ? `${file},sha256=${hashOf(file)},10` : `${file.path},${file.hash},10`,
    );
    rows.push(`${folderName}/METADATA,,`, `${folderName}/RECORD,,`);
    writeFileSync(join(folder, 'RECORD'), `${rows.join('\n')}\n`);
  }
  for (const [path, text] of Object.entries(spec.modules ?? {})) {
    mkdirSync(dirname(join(sitePackages, path)), { recursive: true });
    writeFileSync(join(sitePackages, path), text);
  }
  return folder;
}

// A stable fake hash, distinct per path, so two distributions listing one path differ unless told otherwise.
function hashOf(path: string): string {
  let hash = 0;
  for (const char of path) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return `fake${hash.toString(36)}`;
}

/**
 * A realistic N-distribution environment for timing `vigil check` (bench: 600): a consistent torch /
 * vllm / flashinfer stack plus filler packages, each with a few requirements on earlier ones, markers,
 * an extra, a long description and a RECORD of about 20 files. Deterministic; no finding above a note.
 */
export function writeSyntheticEnvironment(dir: string, count: number): WrittenEnvironment {
  const core: DistributionSpec[] = [
    {
      name: 'torch',
      version: '2.10.0+cu130',
      requires: ['triton==3.6.0; platform_system == "Linux"', 'filelock'],
      modules: { 'torch/version.py': "cuda: Optional[str] = '13.0'\n" },
    },
    { name: 'triton', version: '3.6.0' },
    { name: 'torchvision', version: '0.25.0+cu130', requires: ['torch==2.10.0'] },
    { name: 'flashinfer-python', version: '0.6.4', requires: ['torch', 'numpy'] },
    { name: 'flashinfer-cubin', version: '0.6.4' },
    { name: 'flashinfer-jit-cache', version: '0.6.4+cu130' },
    { name: 'numpy', version: '2.2.6', requiresPython: '>=3.10' },
    { name: 'filelock', version: '3.18.0' },
    {
      name: 'vllm',
      version: '0.16.0rc2.dev344+gea5f903f8',
      requires: ['torch==2.10.0', 'flashinfer-python==0.6.4', 'numpy<3', 'torchvision==0.25.0'],
    },
  ];
  const filler = Math.max(0, count - core.length);
  const names = core.map((spec) => spec.name);
  const specs = [...core];
  for (let i = 0; i < filler; i++) {
    const name = `synthetic-package-${String(i).padStart(4, '0')}`;
    const requires = [0, 1, 2]
      .map((k) => names[(i * 7 + k * 13) % names.length])
      .filter((dep): dep is string => dep !== undefined)
      .map((dep, k) => (k === 2 ? `${dep}; python_version >= "3.8" and sys_platform == "linux"` : dep));
    requires.push(`${names[i % names.length] ?? 'numpy'}[fast]; extra == "speed"`);
    specs.push({
      name,
      version: `1.${i % 40}.${i % 7}`,
      requires,
      requiresPython: '>=3.9',
      providesExtra: ['speed'],
      description: `# ${name}\n\n${'A synthetic package for timing the checker. '.repeat(40)}\n`,
      files: Array.from({ length: 20 }, (_, f) => `${name.replace(/-/g, '_')}/module_${f}.py`),
    });
    names.push(name);
  }
  return writeEnvironment(dir, specs);
}
