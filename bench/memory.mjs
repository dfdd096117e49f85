#!/usr/bin/env node
// memory.mjs — the memory caps of issue 15, asserted: peak RSS of whole vigil processes on input built to
// grow every table Vigil keeps (distinct errors defeat grouping).
//
//   npm run build && node bench/memory.mjs [--diagnose-mb 100] [--run-lines 1000000]
//                                          [--process-names 1000000] [--fleet-events-mb 50] [--limit-mib 200]
//
// * diagnose: a log of N MB of distinct RuntimeError lines (no two alike), read from a file.
// * run: `vigil run` of a server that prints vLLM's ready line, then M distinct error lines, then exits 1.
// * process names: the same two with P lines of one error, each from a process of its own
//   (`(Worker_TP123456 pid=123456)`): per-process state and the names a failure lists must stay capped.
// * fleet: `diagnose --kube -l` of the 8 pods of test/fixtures/fleet/rollout-8-pods through a kubectl
//   stand-in, each pod with E MB of distinct events (then with just under the events cap, where they are read).
// Peak RSS is the process's own maxRSS (process.resourceUsage at exit, written by a --import hook), so the
// figure is vigil's alone, not its server's. Exits 1 when a figure is over --limit-mib.
import process from 'node:process';
import console from 'node:console';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'dist/cli/bin.js');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const diagnoseMb = option('--diagnose-mb', 100);
const runLines = option('--run-lines', 1_000_000);
const processNames = option('--process-names', 1_000_000);
const fleetEventsMb = option('--fleet-events-mb', 50);
const limitMib = option('--limit-mib', 200);

const RSS_HOOK =
  "data:text/javascript,import{writeFileSync}from'node:fs';process.on('exit',()=>{writeFileSync(process.env.VIGIL_BENCH_RSS,String(process.resourceUsage().maxRSS*1024))})";

/** Line i of the distinct errors: a different message, process and number each time. */
const errorLine = (i) =>
  `(Worker_TP${i % 8} pid=${1000 + (i % 8)}) ERROR 01-01 00:00:00 [engine.py:${i}] RuntimeError: distinct failure ${i} in shard ${(i * 7919) % 100003} key ${i.toString(36)}\n`;

/** Line i of one error printed by a million processes: a process name never seen before each time. */
const processLine = (i) =>
  `(Worker_TP${i} pid=${i}) ERROR 01-01 00:00:00 [engine.py:1] RuntimeError: NCCL error: unhandled system error\n`;

/** Writes lines `line(0)`, `line(1)`, ... until `megabytes` or `lines`, whichever comes first. */
async function writeLog(file, { megabytes = Infinity, lines = Infinity, line = errorLine }) {
  const out = fs.createWriteStream(file);
  let written = 0;
  let chunk = '';
  for (let i = 0; written + chunk.length < megabytes * 1024 * 1024 && i < lines; i++) {
    chunk += line(i);
    if (chunk.length > 1 << 20) {
      written += chunk.length;
      if (!out.write(chunk)) await new Promise((done) => out.once('drain', done));
      chunk = '';
    }
  }
  await new Promise((done) => out.end(chunk, done));
}

/** Runs vigil with ARGV; resolves to its exit code, peak RSS in MiB and wall seconds. */
function measure(argv, dir, env = {}) {
  const rssFile = path.join(dir, `rss-${Date.now()}`);
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', RSS_HOOK, BIN, ...argv], {
      env: {
        ...process.env,
        VIGIL_BENCH_RSS: rssFile,
        NO_COLOR: '1',
        XDG_STATE_HOME: dir,
        XDG_CONFIG_HOME: dir,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
    child.on('error', fail);
    child.on('close', (code) =>
      done({
        code,
        rssMib: Number(fs.readFileSync(rssFile, 'utf8')) / (1024 * 1024),
        seconds: (performance.now() - started) / 1000,
        stderr,
      }),
    );
  });
}

const SERVER = (lines, line = errorLine) => `
const line = ${line.toString()};
process.stdout.write('INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.11.0\\n');
process.stdout.write('INFO:     Application startup complete.\\n');
let i = 0;
function more() {
  let chunk = '';
  for (const end = Math.min(i + 2000, ${lines}); i < end; i++) chunk += line(i);
  if (i >= ${lines}) process.stdout.write(chunk, () => process.exit(1));
  else if (process.stdout.write(chunk)) setImmediate(more);
  else process.stdout.once('drain', more);
}
more();
`;

const FLEET = path.join(ROOT, 'test/fixtures/fleet/rollout-8-pods');
const KUBECTL = `#!/bin/sh
case "$1" in
  get) case "$2" in
    pods) cat "$FLEET_DIR/pods.json" ;;
    events) for a in "$@"; do case "$a" in --field-selector=involvedObject.name=*) pod="\${a#--field-selector=involvedObject.name=}" ;; esac; done
      cat "$FLEET_DIR/events/$pod.json" ;;
  esac ;;
  logs) cat "$FLEET_DIR/logs/$2.previous.log" ;;
esac
`;

/** The rollout fixture copied to `fleetDir` with `megabytes` of distinct events per pod, and a kubectl. */
function writeFleet(fleetDir, megabytes) {
  fs.cpSync(FLEET, fleetDir, { recursive: true });
  fs.writeFileSync(path.join(fleetDir, 'kubectl'), KUBECTL, { mode: 0o755 });
  for (const file of fs.readdirSync(path.join(fleetDir, 'events'))) {
    const pod = file.replace(/\.json$/, '');
    const items = [];
    let size = 0;
    for (let i = 0; size < megabytes * 1024 * 1024; i++) {
      const item = JSON.stringify({
        kind: 'Event',
        type: i % 10 === 0 ? 'Warning' : 'Normal',
        reason: `Reason${i}`,
        message: `distinct event ${i} of ${pod} ${'x'.repeat(200)}`,
        count: 1,
        involvedObject: { kind: 'Pod', name: pod },
      });
      items.push(item);
      size += item.length + 1;
    }
    fs.writeFileSync(path.join(fleetDir, 'events', file), `{"kind":"List","items":[${items.join(',')}]}`);
  }
}

/** `diagnose --kube -l` of the fleet in `fleetDir`. */
function measureFleet(fleetDir, dir) {
  return measure(['diagnose', '--kube', '-l', 'app=vllm-qwen3', '-n', 'llm'], dir, {
    PATH: `${fleetDir}:/usr/bin:/bin`,
    FLEET_DIR: fleetDir,
  });
}

if (!fs.existsSync(BIN)) {
  console.error('bench/memory.mjs: build first (npm run build)');
  process.exit(2);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-memory-'));
try {
  console.log(
    `machine: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const log = path.join(dir, 'distinct.log');
  await writeLog(log, { megabytes: diagnoseMb });
  const diagnose = await measure(['diagnose', log], dir);
  fs.rmSync(log);
  const run = await measure(
    ['run', '--no-preflight', '--no-history', '--', process.execPath, '-e', SERVER(runLines)],
    dir,
  );
  const names = path.join(dir, 'process-names.log');
  await writeLog(names, { lines: processNames, line: processLine });
  const diagnoseNames = await measure(['diagnose', names], dir);
  fs.rmSync(names);
  const runNames = await measure(
    [
      'run',
      '--no-preflight',
      '--no-history',
      '--',
      process.execPath,
      '-e',
      SERVER(processNames, processLine),
    ],
    dir,
  );
  const fleetDir = path.join(dir, 'fleet');
  writeFleet(fleetDir, fleetEventsMb);
  const fleet = await measureFleet(fleetDir, dir);
  fs.rmSync(fleetDir, { recursive: true });
  // Just under the 4 MB cap: every pod's events parsed, 256 kept.
  writeFleet(fleetDir, 3.9);
  const fleetRead = await measureFleet(fleetDir, dir);
  fs.rmSync(fleetDir, { recursive: true });
  const rows = [
    [`diagnose of ${diagnoseMb} MB of distinct errors`, diagnose],
    [`run of a server printing ${runLines} distinct errors after ready`, run],
    [`diagnose of one error from ${processNames} distinct process names`, diagnoseNames],
    [`run of a server printing one error from ${processNames} distinct process names after ready`, runNames],
    [`fleet of 8 pods with ${fleetEventsMb} MB of events each`, fleet],
    ['fleet of 8 pods with 3.9 MB of events each (read)', fleetRead],
  ];
  let over = false;
  for (const [what, result] of rows) {
    const ok = result.rssMib <= limitMib;
    over ||= !ok;
    console.log(
      `${ok ? 'ok  ' : 'OVER'} ${what}: peak RSS ${result.rssMib.toFixed(0)} MiB (limit ${limitMib}), exit ${result.code}, ${result.seconds.toFixed(1)} s`,
    );
    if (result.code !== 1)
      console.log(`     unexpected exit ${result.code}: ${result.stderr.trim().split('\n').at(-1) ?? ''}`);
  }
  console.log(
    `load after: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  process.exitCode = over ? 1 : 0;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
