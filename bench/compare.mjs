#!/usr/bin/env node
// compare.mjs — two or more builds of the CLI against each other and against the grep pipeline, on one
// file, in alternating order: on a shared machine only paired runs tell a 5 % change from the noise.
//
//   node scripts/bundle-cli.mjs /tmp/before          # on the commit to compare against
//   node bench/compare.mjs --rounds 7 --file bench/out/journal-1g.log /tmp/before dist/cli
//
// Each build is a folder holding bin.js. Prints each build's median wall time (and every round's), and the
// median of its per-round ratios to the grep pipeline. Fails if a build does not name the planted cause
// (FILE.meta.json, written by bench/generate-journal.mjs).
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  if (at === -1) return fallback;
  const [value] = argv.splice(at, 2).slice(1);
  return value;
};
const rounds = Number(option('--rounds', '5'));
const file = option('--file', 'bench/out/journal-1g.log');
const builds = argv;
if (builds.length === 0 || !Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: node bench/compare.mjs [--rounds N] [--file LOG] BUILD_DIR...');
  process.exit(2);
}
for (const build of builds) {
  if (!fs.existsSync(path.join(build, 'bin.js'))) {
    console.error(`${build} holds no bin.js; write one with: node scripts/bundle-cli.mjs ${build}`);
    process.exit(2);
  }
}
if (!fs.existsSync(file)) {
  console.error(
    `${file} is missing; write it with: node bench/run.mjs --sizes 1g (or bench/generate-journal.mjs)`,
  );
  process.exit(2);
}
const metaPath = `${file}.meta.json`;
const needle = fs.existsSync(metaPath)
  ? JSON.parse(fs.readFileSync(metaPath, 'utf8')).planted?.messageNeedle
  : null;

const GREP = 'grep';
const pipeline = `grep -E 'error|Error|exception|No valid|not supported|not found|cannot' '${file}' | grep -v -E 'FutureWarning|gpt_oss_triton' > /dev/null`;
const command = (build) =>
  build === GREP
    ? ['bash', ['-c', pipeline]]
    : [process.execPath, [path.join(build, 'bin.js'), 'diagnose', file, '--format', 'json']];

// Each build keeps its V8 code cache in a folder of its own: in a shared one each build's run would drop
// the other's bytecode (src/cli/code-cache.ts keeps one build's), and every run would start cold.
const cacheRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-compare-'));
process.on('exit', () => fs.rmSync(cacheRoot, { recursive: true, force: true }));
const envOf = (build) => ({
  ...process.env,
  XDG_CACHE_HOME: path.join(cacheRoot, String(builds.indexOf(build))),
});

function time(build) {
  const [program, args] = command(build);
  const t0 = performance.now();
  const result = spawnSync(program, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 26,
    env: envOf(build),
  });
  const seconds = (performance.now() - t0) / 1000;
  if (build !== GREP && needle && !String(result.stdout).includes(needle)) {
    console.error(`${build} did not name the planted cause (${needle})`);
    process.exit(1);
  }
  return seconds;
}

const all = [...builds, GREP];
const times = new Map(all.map((build) => [build, []]));
// The file in the page cache and each program warm before the timed rounds.
spawnSync('cat', [file], { stdio: 'ignore' });
for (const build of all) time(build);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? all : [...all].reverse();
  for (const build of order) times.get(build).push(time(build));
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const grep = times.get(GREP);
for (const build of all) {
  const own = times.get(build);
  const ratio = build === GREP ? '' : `  vs grep ${median(own.map((t, i) => t / grep[i])).toFixed(3)}×`;
  console.log(
    `${build.padEnd(24)} median ${median(own).toFixed(3)} s${ratio}  (${own.map((t) => t.toFixed(2)).join(' ')})`,
  );
}
