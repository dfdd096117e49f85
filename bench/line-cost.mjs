#!/usr/bin/env node
// line-cost.mjs — what a line read in full costs: diagnose(buffer) in this process on each LOG, this
// build's dist/ against a baseline dist/ (--before DIR, e.g. a copy of main's), in alternating rounds,
// least and median CPU
// time. Per line: the whole log's time over its lines, and the same log read with every line in full
// (readEveryLine) over its lines, which is the cost of one full line on that log's mix. The two builds'
// JSON diagnoses must be identical, or it says so and fails.
//
//   npm run build && node bench/line-cost.mjs [--before /tmp/before/dist] [--rounds 7] LOG...
import console from 'node:console';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL, URL } from 'node:url';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  if (at === -1) return fallback;
  const value = argv[at + 1];
  argv.splice(at, 2);
  return value;
};
const beforeDir = option('--before', null);
const rounds = Number(option('--rounds', '7'));
if (argv.length === 0) {
  console.error('usage: node bench/line-cost.mjs [--before DIST] [--rounds N] LOG...');
  process.exit(2);
}
const load = async (dir) => import(pathToFileURL(path.resolve(dir, 'index.js')).href);
const builds = [['this', await load(new URL('../dist', import.meta.url).pathname)]];
if (beforeDir) builds.unshift(['before', await load(beforeDir)]);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
let failed = false;
for (const file of argv) {
  const buffer = fs.readFileSync(file);
  const lines = buffer.toString('latin1').split('\n').length - 1;
  const modes = [
    ['log', {}],
    ['every line', { readEveryLine: true }],
  ];
  console.log(`${file}: ${(buffer.length / 1e6).toFixed(1)} MB, ${lines} lines`);
  for (const [mode, options] of modes) {
    const outputs = builds.map(([, build]) => JSON.stringify(build.diagnose(buffer, options)));
    if (outputs.some((o) => o !== outputs[0])) {
      console.log(`  ${mode}: the builds' diagnoses differ`);
      failed = true;
    }
    const times = builds.map(() => []);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? builds.map((_, i) => i) : builds.map((_, i) => builds.length - 1 - i);
      for (const i of order) {
        // CPU time, not wall time: the machine is shared, and a diagnosis of a buffer never waits.
        const t0 = process.cpuUsage();
        builds[i][1].diagnose(buffer, options);
        const spent = process.cpuUsage(t0);
        times[i].push((spent.user + spent.system) / 1000);
      }
    }
    // The least time is the least disturbed by the machine's other work; the median is shown beside it.
    const row = builds.map(([name], i) => {
      const least = Math.min(...times[i]);
      return `${name} ${least.toFixed(0)} ms (${((least * 1000) / lines).toFixed(2)} µs/line; median ${median(times[i]).toFixed(0)})`;
    });
    const ratio =
      builds.length === 2 ? `  ratio ${(Math.min(...times[1]) / Math.min(...times[0])).toFixed(3)}` : '';
    console.log(`  ${mode.padEnd(10)}  ${row.join('  ')}${ratio}`);
  }
}
process.exit(failed ? 1 : 0);
