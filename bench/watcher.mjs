#!/usr/bin/env node
// watcher.mjs — `vigil watch --follow --log` on a chatty server that crashes every few seconds (issue 34):
// the watcher's own CPU per 1,000 lines and in % of one core, and its RSS over the run (peak and samples,
// to see it flat). The server is bench/chatty-server.mjs (RATE realistic lines a second, appended to the
// log as `server >> log`), killed every CRASH_EVERY seconds after which vLLM's "engine dead while serving"
// lines are appended (a death while serving: one incident, resolved by the next start that is ready).
// --rate above 5,000 compresses time: --rate 50000 for 60 s is ten minutes of a 5,000 lines/s server.
// --simulated-minutes M runs until the log holds M minutes of a 5,000 lines/s server, however fast the
// chatty server manages under the machine's load (--seconds is then ignored). --heap-snapshots DIR writes
// a heap snapshot of the watcher after the first death and at the end, to compare what its heap holds.
//
//   npm run build && node bench/watcher.mjs [--rate 5000] [--seconds 60] [--crash-every 20]
//     [--simulated-minutes 60] [--heap-mib N] [--heap-snapshots DIR]
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  closeSync,
  mkdtempSync,
  openSync,
  mkdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { setInterval, clearInterval } from 'node:timers';
import { URL, fileURLToPath } from 'node:url';

const args = {
  rate: 5000,
  seconds: 60,
  crashEvery: 20,
  heapMiB: null,
  simulatedMinutes: null,
  snapshots: null,
};
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  if (a === '--rate') args.rate = Number(process.argv[++i]);
  else if (a === '--seconds') args.seconds = Number(process.argv[++i]);
  else if (a === '--crash-every') args.crashEvery = Number(process.argv[++i]);
  // The watcher's JS heap capped: a leak then ends it, where garbage not yet collected only costs memory.
  else if (a === '--heap-mib') args.heapMiB = Number(process.argv[++i]);
  else if (a === '--simulated-minutes') args.simulatedMinutes = Number(process.argv[++i]);
  else if (a === '--heap-snapshots') args.snapshots = process.argv[++i];
}
/** The simulated server's rate: the issue's 5,000 lines a second. */
const SIMULATED_RATE = 5000;
const targetLines = args.simulatedMinutes === null ? null : args.simulatedMinutes * 60 * SIMULATED_RATE;

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const BIN = here('../dist/cli/bin.js');
const CHATTY = here('chatty-server.mjs');
const DEATH = readFileSync(here('../test/supervision/fixtures/logs/vllm-engine-dead-while-serving.log'));
const TICKS = 100; // USER_HZ on Linux

/** The process's CPU seconds (user + system) and its RSS now and at peak, from /proc. */
function usage(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpu = (Number(fields[11]) + Number(fields[12])) / TICKS;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { cpu, rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
}

function countLines(bytes) {
  let count = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) count += 1;
  return count;
}

/** Counts the lines appended to a file since the last call, a chunk at a time (the log outgrows 2 GiB). */
function lineCounter(path) {
  const chunk = Buffer.alloc(1 << 20);
  let offset = 0;
  let lines = 0;
  return () => {
    const fd = openSync(path, 'r');
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, offset);
      if (read === 0) break;
      lines += countLines(chunk.subarray(0, read));
      offset += read;
    }
    closeSync(fd);
    return lines;
  };
}

const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-watcher-'));
const log = join(dir, 'server.log');
writeFileSync(log, '');
const heap = args.heapMiB === null ? [] : [`--max-old-space-size=${args.heapMiB}`];
if (args.snapshots !== null) {
  mkdirSync(args.snapshots, { recursive: true });
  heap.push('--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${args.snapshots}`);
}
const vigil = spawn(
  process.execPath,
  [...heap, BIN, 'watch', '--follow', '--log', log, '--state-dir', join(dir, 'state')],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  },
);
let stderr = '';
vigil.stderr.setEncoding('utf8').on('data', (text) => (stderr += text));
while (!stderr.includes('until stopped')) await sleep(50);
const before = usage(vigil.pid);
const started = Date.now();
const samples = [];
const sampler = setInterval(() => samples.push(usage(vigil.pid).rssMiB), 1000);

const counted = lineCounter(log);
let lines = 0;
const more = () => (targetLines === null ? Date.now() - started < args.seconds * 1000 : lines < targetLines);
console.log('simulated min | wall s | watcher RSS MiB | CPU % of a core so far');
let crashes = 0;
while (more()) {
  const left = targetLines === null ? args.seconds - (Date.now() - started) / 1000 : args.crashEvery;
  const runFor = Math.min(args.crashEvery, left);
  const fd = openSync(log, 'a');
  const server = spawn(
    process.execPath,
    [CHATTY, '--rate', String(args.rate), '--seconds', String(runFor + 60)],
    {
      stdio: ['ignore', fd, 'ignore'],
    },
  );
  closeSync(fd);
  await sleep(runFor * 1000);
  server.kill('SIGKILL');
  await new Promise((resolve) => server.once('exit', resolve));
  appendFileSync(log, DEATH);
  crashes += 1;
  lines = counted();
  const now = usage(vigil.pid);
  const wall = (Date.now() - started) / 1000;
  console.log(
    `${(lines / SIMULATED_RATE / 60).toFixed(1).padStart(13)} | ${wall.toFixed(0).padStart(6)} | ` +
      `${now.rssMiB.toFixed(1).padStart(15)} | ${(((now.cpu - before.cpu) / wall) * 100).toFixed(1)}`,
  );
  if (crashes === 1 && args.snapshots !== null) process.kill(vigil.pid, 'SIGUSR2');
}
const wallS = (Date.now() - started) / 1000;
if (vigil.exitCode !== null)
  throw new Error(`the watcher ended early (status ${vigil.exitCode}): ${stderr.slice(-2000)}`);
// Let the watcher read what is left and judge the last death.
await sleep(3000);
clearInterval(sampler);
const after = usage(vigil.pid);
if (args.snapshots !== null) {
  process.kill(vigil.pid, 'SIGUSR2');
  await sleep(15000);
}
vigil.kill('SIGTERM');
await new Promise((resolve) => vigil.once('exit', resolve));

lines = counted();
const cpuS = after.cpu - before.cpu;
const opened = (stderr.match(/incident \S+ opened/g) ?? []).length;
const repeated = (stderr.match(/failed again with the same cause/g) ?? []).length;
const resolved = (stderr.match(/ resolved \(ready again\)/g) ?? []).length;
const third = Math.max(1, Math.floor(samples.length / 3));
const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
console.log(
  `vigil watch --follow --log${args.heapMiB === null ? '' : ` (JS heap capped at ${args.heapMiB} MiB)`}: ${lines.toLocaleString('en')} lines at ${args.rate.toLocaleString('en')} lines/s ` +
    `over ${wallS.toFixed(1)} s, ${crashes} deaths while serving (every ${args.crashEvery} s)`,
);
console.log(
  `  watcher CPU ${cpuS.toFixed(2)} s = ${((cpuS / wallS) * 100).toFixed(1)} % of one core; ` +
    `${((cpuS * 1e3 * 1000) / lines).toFixed(2)} ms per 1,000 lines`,
);
const thirds = [samples.slice(0, third), samples.slice(third, 2 * third), samples.slice(2 * third)];
const each = (measure) => thirds.map((values) => measure(values).toFixed(0)).join(' / ');
// RSS is a sawtooth (garbage piles up until a full collection returns it): the mean of a third depends on
// where its teeth fall; the lowest sample of each third, after a collection, is what the watcher keeps.
console.log(
  `  RSS: peak ${after.peakMiB.toFixed(0)} MiB; mean of each third of the run ${each(mean)} MiB; ` +
    `lowest of each third ${each((values) => Math.min(...values))} MiB`,
);
console.log(`  incidents: ${opened} opened, ${repeated} repeats counted, ${resolved} resolutions`);
console.log(
  `  load average at the end ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}; ${new Date().toISOString()}`,
);
if (process.env.BENCH_VERBOSE) console.log(stderr);
rmSync(dir, { recursive: true, force: true });
