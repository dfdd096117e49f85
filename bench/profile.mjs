#!/usr/bin/env node
// profile.mjs — where the time of one vigil command goes: runs it under `node --cpu-prof` and prints the
// functions with the most self time and the most inclusive time (a function counted once per sample).
//
//   node bench/profile.mjs [--top 25] [--filter dist/] [--bin dist/cli/bin.js] [--interval µs] -- diagnose bench/out/journal-1g.log --format json
//
// The arguments after `--` go to dist/cli/bin.js (or --bin); stdout is discarded. The .cpuprofile stays in
// bench/out/profiles/ for Chrome DevTools / speedscope.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
if (dash === -1) {
  console.error('usage: node bench/profile.mjs [--top N] [--filter REGEX] -- <vigil arguments>');
  process.exit(2);
}
const own = argv.slice(0, dash);
const top = own.includes('--top') ? Number(own[own.indexOf('--top') + 1]) : 25;
const bin = own.includes('--bin') ? own[own.indexOf('--bin') + 1] : 'dist/cli/bin.js';
const filter = own.includes('--filter') ? new RegExp(own[own.indexOf('--filter') + 1]) : null;
// Node samples every 1 ms by default: too coarse for a start-up of a few hundred ms (--interval 100 = 0.1 ms).
const interval = own.includes('--interval') ? Number(own[own.indexOf('--interval') + 1]) : 1000;
const dir = path.join(ROOT, 'bench', 'out', 'profiles');
fs.mkdirSync(dir, { recursive: true });
const before = new Set(fs.readdirSync(dir));
const t0 = performance.now();
const r = spawnSync(
  process.execPath,
  ['--cpu-prof', `--cpu-prof-interval=${interval}`, '--cpu-prof-dir', dir, bin, ...argv.slice(dash + 1)],
  {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
const wall = (performance.now() - t0) / 1000;
const file = fs.readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
if (!file) {
  console.error(`no profile written (exit ${r.status})`);
  process.exit(1);
}
const prof = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = (n) => {
  const f = n.callFrame;
  const where = f.url ? `${f.url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '')}:${f.lineNumber + 1}` : '';
  return `${f.functionName || '(anonymous)'} ${where}`.trim();
};
const count = new Map();
for (const s of prof.samples) count.set(s, (count.get(s) ?? 0) + 1);
const self = new Map();
const incl = new Map();
for (const [id, c] of count) {
  const n = byId.get(id);
  self.set(name(n), (self.get(name(n)) ?? 0) + c);
  const seen = new Set();
  for (let x = id; x !== undefined; x = parent.get(x)) {
    const k = name(byId.get(x));
    if (seen.has(k)) continue;
    seen.add(k);
    incl.set(k, (incl.get(k) ?? 0) + c);
  }
}
const total = prof.samples.length;
// Sampled time in ms: the profile's span shared out by samples.
const msPer = (prof.endTime - prof.startTime) / 1000 / Math.max(1, total);
const idle = self.get('(idle)') ?? 0;
const show = (title, map) => {
  console.log(`\n${title}`);
  [...map]
    .filter(([k]) => !filter || filter.test(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([k, c]) =>
      console.log(
        `${((100 * c) / total).toFixed(1).padStart(6)} % ${(c * msPer).toFixed(1).padStart(7)} ms  ${k}`,
      ),
    );
};
console.log(
  `${path.relative(ROOT, path.join(dir, file))}: wall ${wall.toFixed(2)} s, exit ${r.status}, ${total} samples, idle ${((100 * idle) / total).toFixed(1)} %`,
);
show('self time', self);
show('inclusive time', incl);
