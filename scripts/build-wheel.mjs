#!/usr/bin/env node
// build-wheel.mjs — one Python wheel per platform, carrying the standalone binary (scripts/build-binary.mjs)
// and a `vigil` command that execs it: `uv tool install` / `pipx install` give vigil with no Node.
//
//   node scripts/build-wheel.mjs [--arch x64,arm64] [--bin dist/bin] [--out dist/wheels]
//
// Built with the Python build tooling Debian ships (python3-build, python3-setuptools, python3-wheel),
// without build isolation, so nothing is downloaded. Tagged py3-none-manylinux_2_28_<machine>: the binary
// is Node's, which needs glibc 2.28.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PLATFORMS = { x64: 'manylinux_2_28_x86_64', arm64: 'manylinux_2_28_aarch64' };

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const arches = option('--arch', Object.keys(PLATFORMS).join(',')).split(',');
const outdir = resolve(option('--out', join(root, 'dist/wheels')));
const bindir = resolve(option('--bin', join(root, 'dist/bin')));
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const python = findPython();

const work = mkdtempSync(join(tmpdir(), 'vigil-wheel-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
mkdirSync(outdir, { recursive: true });
for (const arch of arches) {
  const platform = PLATFORMS[arch];
  if (platform === undefined) fail(`unknown --arch ${arch}: give ${Object.keys(PLATFORMS).join(' or ')}`);
  const binary = join(bindir, `vigil-linux-${arch}`);
  if (!existsSync(binary)) fail(`${binary} is missing: run npm run build:binary first`);
  const stage = join(work, arch);
  cpSync(join(root, 'packaging/python'), stage, { recursive: true });
  mkdirSync(join(stage, 'vigil_llm/bin'), { recursive: true });
  cpSync(binary, join(stage, 'vigil_llm/bin/vigil'));
  chmodSync(join(stage, 'vigil_llm/bin/vigil'), 0o755);
  const name = `vigil_llm-${version}-py3-none-${platform}.whl`;
  rmSync(join(outdir, name), { force: true });
  const built = spawnSync(python, ['-m', 'build', '--wheel', '--no-isolation', '--outdir', outdir, stage], {
    encoding: 'utf8',
    env: { ...process.env, VIGIL_VERSION: version, VIGIL_WHEEL_PLATFORM: platform },
  });
  if (built.status !== 0 || !readdirSync(outdir).includes(name)) {
    fail(`${python} -m build failed for ${arch}:\n${built.stdout ?? ''}${built.stderr ?? ''}`);
  }
  console.log(`vigil ${version}: ${join(outdir, name)}`);
}

/** A Python that has build, setuptools and wheel: VIGIL_PYTHON, python3 on PATH, or Debian's own. */
function findPython() {
  const candidates = [process.env.VIGIL_PYTHON, 'python3', '/usr/bin/python3'].filter(Boolean);
  for (const candidate of candidates) {
    try {
      execFileSync(candidate, ['-c', 'import build, setuptools, wheel'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // Not this one.
    }
  }
  fail(
    `no Python with build, setuptools and wheel (tried ${candidates.join(', ')}): ` +
      'apt-get install python3-build python3-setuptools python3-wheel',
  );
}

function fail(message) {
  console.error(`build-wheel: ${message}`);
  process.exit(2);
}
