#!/usr/bin/env node
// run.mjs — `npm run bench`: times `vigil diagnose` on generated journals of an 8-worker vLLM server against
// the grep pipeline an operator types and against `cat`, in every shape a log comes in (the whole journal,
// the same without its start, reworded start and ready lines, request errors in a tenth of the lines), plus
// stdin and .gz input, the bundled incident against `node -e 0`, `vigil check` on 100 and 600
// distributions and the CPU `vigil run` spends following a chatty server.
//
//   npm run build && node bench/run.mjs [--sizes 1m,10m,100m,1g] [--4g] [--runs N]
//                                       [--only diagnose,shapes,stdin,gz,small,check,run,watch]
//                                       [--shapes cut,reworded,request-errors] [--shape-sizes 1m,10m,100m,1g] [--clean]
//                                       [--write] [--strict] [--keep-going] [--warmup 0|1] [--vigil dist/cli/bin.js]
//
// * The journal shape runs at every size of --sizes (default 1m,10m,100m,1g: the logs operators have, 1 to
//   100 MB, and the headline; --4g adds 4g); the other shapes, stdin and .gz at every size of --shape-sizes
//   (default: the same sizes; --shape-size is its old one-size spelling). Each is paired with the grep
//   pipeline, `cat` and `node -e 0` (Node's own start: what no log can be faster than). --clean deletes each
//   generated input of 500 MB or more once it has been timed.
// * watch: the CPU `vigil watch --follow --log F` spends per 1,000 lines while the chatty server appends
//   --rate lines a second to F (steady state, from 2 s on, sampled from /proc).
// * Builds nothing: dist/cli/bin.js must exist (`npm run build`). It times a copy of dist/ taken at the start
//   (bench/out/vigil-dist), so a rebuild during the bench does not change what is measured.
// * Generates missing inputs under bench/out/ (gitignored): journal-<size>.log (+ .meta.json with the planted
//   root cause), journal-100m.log.gz, env-600/.
// * Each timed command is a whole process (Node start-up included), run under `/usr/bin/time -f '%e %U %S %M'`
//   for user/sys CPU and peak RSS (the largest process of a pipeline); wall time is taken here with hrtime.
//   The page cache is warmed (`cat` twice) and every command runs once untimed before the timed rounds; the
//   commands then alternate (A B C, B C A, ...) and the medians of the rounds are reported, with the median of
//   the per-round ratios (paired ratio).
// * Every command runs with XDG_CACHE_HOME=bench/out/xdg-cache: on Node without module.enableCompileCache,
//   vigil keeps V8's code cache there (src/cli/code-cache.ts), filled by the untimed round, as a user's
//   ~/.cache/vigil is after the first run; the bench never writes the user's own.
// * Correctness: every vigil diagnosis, of every shape, must name the root cause the generator planted
//   (Worker_TP5's torch.OutOfMemoryError); otherwise the bench says so and exits 1.
// * --write replaces the block between the bench markers in BENCHMARKS.md (machine, commands, table).
// * --runs N sets the rounds (default 5 below 500 MB, 3 above); --large-runs N only those of 500 MB and up.
// * --warmup 0 skips the untimed round (the page cache is still warmed; for slow builds).
// * --strict also exits 1 when a target is missed; --keep-going times a wrong diagnosis anyway.
import process from 'node:process';
import console from 'node:console';
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { setInterval, clearInterval, setTimeout } from 'node:timers';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATOR_VERSION, PLANTED, SHAPES, generateJournal, parseSize } from './generate-journal.mjs';
import { writeEnvironment } from './write-environment.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'bench', 'out');
let BIN = 'dist/cli/bin.js'; // --vigil PATH times another build (e.g. a copy of dist/ with a variant)
let snapshot = true; // dist/ is copied once, so a rebuild during the bench cannot change what is timed
const PAT = 'error|Error|exception|No valid|not supported|not found|cannot';
const NEG = 'FutureWarning|gpt_oss_triton';
const TIME = '/usr/bin/time';
const NODE = process.execPath; // the node that runs the bench runs vigil too
const SECTIONS = ['diagnose', 'shapes', 'stdin', 'gz', 'small', 'check', 'run', 'watch'];
/** Issue 13's targets (run: issue 6's). */
const TARGETS = { grepRatio: 0.5, rssMiB: 150, checkMs: 250, incidentVsNode: 2, runCorePct: 5 };
/** Issue 33's: 10 MB at most 2x `node -e 0`; 100 MB in every shape at most 1x the grep pipeline; watch. */
const TARGETS_33 = { tenMbVsNode: 2, hundredMbVsGrep: 1, watchCorePct: 3 };
const INCIDENT = 'examples/vllm-kimi-k25-flashinfer-mismatch.journal.log';
/** Inputs this large are deleted after use with --clean. */
const LARGE = 5e8;

// ---------------------------------------------------------------- arguments
function parseArgs(argv) {
  const o = {
    sizes: ['1m', '10m', '100m', '1g'],
    runs: null,
    only: SECTIONS,
    write: false,
    strict: false,
    runSeconds: 10,
    rate: 5000,
    envCount: 600,
    keepGoing: false,
    warmup: 1,
    largeRuns: null,
    shapes: SHAPES.filter((x) => x !== 'journal'),
    shapeSizes: null,
    envCounts: [100, 600],
    clean: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--sizes')
      o.sizes = next()
        .split(',')
        .map((x) => x.trim().toLowerCase())
        .filter(Boolean);
    else if (a === '--runs') o.runs = Number(next());
    else if (a === '--only')
      o.only = next()
        .split(',')
        .map((x) => x.trim());
    else if (a === '--skip') {
      const skip = next().split(',');
      o.only = o.only.filter((s) => !skip.includes(s));
    } else if (a === '--write') o.write = true;
    else if (a === '--strict') o.strict = true;
    else if (a === '--run-seconds') o.runSeconds = Number(next());
    else if (a === '--rate') o.rate = Number(next());
    else if (a === '--env-count') o.envCounts = next().split(',').map(Number);
    else if (a === '--shapes') o.shapes = next().split(',').filter(Boolean);
    else if (a === '--shape-size' || a === '--shape-sizes')
      o.shapeSizes = next()
        .toLowerCase()
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
    else if (a === '--4g') o.big = true;
    else if (a === '--clean') o.clean = true;
    else if (a === '--vigil') {
      BIN = next();
      snapshot = false;
    } else if (a === '--keep-going') o.keepGoing = true;
    else if (a === '--warmup') o.warmup = Number(next());
    else if (a === '--large-runs') o.largeRuns = Number(next());
    else if (a === '-h' || a === '--help') {
      console.log(
        fs
          .readFileSync(fileURLToPath(import.meta.url), 'utf8')
          .split('\nimport ')[0]
          .replace(/^\/\/ ?/gm, ''),
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a} (see --help)`);
  }
  for (const s of o.only)
    if (!SECTIONS.includes(s)) throw new Error(`unknown section ${s}; sections: ${SECTIONS.join(',')}`);
  if (o.big && !o.sizes.includes('4g')) o.sizes.push('4g');
  for (const s of o.sizes) parseSize(s);
  for (const s of o.shapes)
    if (!SHAPES.includes(s)) throw new Error(`unknown shape ${s}; shapes: ${SHAPES.join(',')}`);
  // 4 GB in every shape is an hour on a quiet machine: the shapes stop at 1 GB unless asked.
  o.shapeSizes ??= o.sizes.filter((x) => parseSize(x) <= 1e9);
  for (const s of o.shapeSizes) parseSize(s);
  if (o.runs !== null && !(o.runs >= 1)) throw new Error('--runs must be >= 1');
  return o;
}

// ---------------------------------------------------------------- helpers
const log = (msg) => process.stderr.write(`bench: ${msg}\n`);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const sh = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
const rel = (p) => path.relative(ROOT, p);
const fmtS = (x) => (x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
const fmtMBs = (bytes, s) => Math.round(bytes / 1e6 / s).toLocaleString('en-US');
const label = (size) => size.replace(/m$/, ' MB').replace(/g$/, ' GB').replace(/k$/, ' kB');
const haveTime = fs.existsSync(TIME);
const devnull = fs.openSync('/dev/null', 'w');

/**
 * Runs argv once as a whole process: wall seconds (hrtime here), user/sys CPU seconds and peak RSS (MiB) from
 * /usr/bin/time (the peak of the largest process, children included), exit code, and stdout when captured.
 */
function measure(argv, { capture = false } = {}) {
  const tf = path.join(os.tmpdir(), `vigil-bench-${process.pid}.time`);
  const full = haveTime ? [TIME, '-f', '%e %U %S %M', '-o', tf, ...argv] : argv;
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(full[0], full.slice(1), {
      cwd: ROOT,
      env: { ...process.env, XDG_CACHE_HOME: path.join(OUT, 'xdg-cache') },
      stdio: ['ignore', capture ? 'pipe' : devnull, 'pipe'],
    });
    const out = [];
    let err = '';
    if (capture) child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => {
      err = (err + d.toString()).slice(-4000);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9;
      let user = NaN;
      let sys = NaN;
      let rssMiB = NaN;
      if (haveTime) {
        const last = fs.readFileSync(tf, 'utf8').trim().split('\n').pop() ?? '';
        const f = last.split(' ').map(Number);
        if (f.length === 4 && f.every((x) => Number.isFinite(x)))
          [, user, sys, rssMiB] = [f[0], f[1], f[2], f[3] / 1024];
      }
      resolve({
        wall,
        user,
        sys,
        rssMiB,
        code,
        stdout: capture ? Buffer.concat(out).toString() : '',
        stderr: err,
      });
    });
  });
}

// ---------------------------------------------------------------- inputs
function ensureJournal(size, shape = 'journal') {
  const file = path.join(OUT, `journal-${size}${shape === 'journal' ? '' : `-${shape}`}.log`);
  const metaFile = `${file}.meta.json`;
  let meta = null;
  try {
    meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'));
    if (
      meta.generatorVersion !== GENERATOR_VERSION ||
      (meta.shape ?? 'journal') !== shape ||
      meta.targetBytes !== parseSize(size) ||
      fs.statSync(file).size !== meta.bytes
    )
      meta = null;
  } catch {
    meta = null;
  }
  if (meta === null) {
    log(`generating ${rel(file)} (${label(size)}, ${shape})`);
    const t0 = performance.now();
    meta = generateJournal({ size, out: file, shape });
    const s = (performance.now() - t0) / 1000;
    log(`  ${meta.bytes} bytes, ${meta.lines} lines in ${s.toFixed(1)} s (${fmtMBs(meta.bytes, s)} MB/s)`);
  }
  return { size, shape, file, meta };
}

/** What a table row calls an input. */
const SHAPE_NAMES = {
  journal: 'journal',
  cut: 'journal without its first 2,000 lines',
  reworded: 'journal, start and ready lines reworded',
  'request-errors': 'journal, 10 % request-error lines',
};
const inputName = (j) => `${label(j.size)} ${SHAPE_NAMES[j.shape] ?? j.shape}`;

/** --clean: a large generated input goes once timed (with its .gz). */
function cleanUp(j, opts) {
  if (!opts.clean || j.meta.bytes < LARGE) return;
  for (const f of [j.file, `${j.file}.meta.json`, `${j.file}.gz`]) fs.rmSync(f, { force: true });
  log(`removed ${rel(j.file)}`);
}

function ensureGzip(journal) {
  const gz = `${journal.file}.gz`;
  if (!fs.existsSync(gz) || fs.statSync(gz).mtimeMs < fs.statSync(journal.file).mtimeMs) {
    log(`compressing ${rel(journal.file)} → ${rel(gz)} (gzip -6)`);
    const r = spawnSync('bash', ['-c', `gzip -6 -c ${sh(journal.file)} > ${sh(gz)}`], { stdio: 'inherit' });
    if (r.status !== 0) throw new Error('gzip failed');
  }
  return gz;
}

function warm(file) {
  for (let i = 0; i < 2; i++) spawnSync('bash', ['-c', `cat ${sh(file)} > /dev/null`]);
}

// ---------------------------------------------------------------- correctness
/** Whether vigil's JSON names the planted root cause. */
function verify(stdout, meta) {
  let d;
  try {
    d = JSON.parse(stdout);
  } catch {
    return { ok: false, why: `output is not JSON: ${JSON.stringify(stdout.slice(0, 200))}` };
  }
  if (d && d.rootCause === undefined && d.diagnosis) d = d.diagnosis;
  const rc = d?.rootCause;
  if (!rc) return { ok: false, why: `no rootCause (verdict ${d?.verdict})` };
  const name = `${rc.exception ?? '(no exception)'}: ${String(rc.message).slice(0, 70)}`;
  const ok =
    String(rc.message).includes(PLANTED.messageNeedle) &&
    (rc.exception === null ||
      rc.exception === PLANTED.exception ||
      String(rc.exception).endsWith('OutOfMemoryError'));
  const notes = [];
  if (rc.lineNumber !== meta.planted.lineNumber)
    notes.push(`line ${rc.lineNumber}, planted at ${meta.planted.lineNumber}`);
  if (Array.isArray(rc.processes) && !rc.processes.some((p) => String(p).includes(PLANTED.process)))
    notes.push(`processes ${JSON.stringify(rc.processes)} do not include ${PLANTED.process}`);
  return {
    ok,
    why: ok ? '' : `named ${JSON.stringify(name)}, planted ${PLANTED.exception}: ${PLANTED.messageNeedle}`,
    name,
    notes,
  };
}

// ---------------------------------------------------------------- timing rounds
/**
 * Times the methods in alternating order (round r starts at method r mod n) after one untimed run each.
 * A method: { key, argv, capture?, check?(result) → string|null (an error) }.
 */
let warmupRounds = 1; // --warmup
async function rounds(methods, runs, failures, context) {
  const res = Object.fromEntries(methods.map((m) => [m.key, []]));
  for (let r = -warmupRounds; r < runs; r++) {
    const order = methods.map((_, i) => methods[(i + Math.max(r, 0)) % methods.length]);
    for (const m of order) {
      const x = await measure(m.argv, { capture: !!m.capture });
      const problem = m.check
        ? m.check(x)
        : x.code === 0
          ? null
          : `exit ${x.code}: ${x.stderr.trim().slice(-300)}`;
      if (problem) {
        const msg = `${context} ${m.key}: ${problem}`;
        if (!failures.includes(msg)) {
          failures.push(msg);
          log(`FAIL ${msg}`);
        }
      }
      if (r >= 0) res[m.key].push(x);
    }
    if (r >= 0)
      log(
        `  ${context} round ${r + 1}/${runs}: ${methods.map((m) => `${m.key} ${res[m.key].at(-1).wall.toFixed(3)} s`).join(', ')}`,
      );
  }
  return res;
}
const summary = (xs) => ({
  wall: median(xs.map((x) => x.wall)),
  min: Math.min(...xs.map((x) => x.wall)),
  max: Math.max(...xs.map((x) => x.wall)),
  rssMiB: Math.max(...xs.map((x) => x.rssMiB)),
  cpu: median(xs.map((x) => x.user + x.sys)),
});
const paired = (a, b) => median(a.map((x, i) => x.wall / b[i].wall));

function vigilCheck(meta, notes, context) {
  return (x) => {
    if (x.code !== 0 && x.code !== 1) return `exit ${x.code}: ${x.stderr.trim().slice(-400)}`;
    const v = verify(x.stdout, meta);
    if (!v.ok) return v.why;
    for (const n of v.notes) notes.add(`${context}: ${n}`);
    return null;
  };
}
const grepCheck = (x) =>
  x.code === 0 ? null : `first grep exited ${x.code} (141 = killed by SIGPIPE: not a full scan)`;

const NODE_E_0 = { key: 'node', argv: [NODE, '-e', '0'] };
// Node's start and the file's read with nothing else: the floor under any Node reader of the whole log
const READ_FLOOR = 'bench/read-floor.mjs';

// ---------------------------------------------------------------- sections
async function benchSize(j, opts, failures, notes) {
  const runs = j.meta.bytes < 5e8 ? (opts.runs ?? 5) : (opts.largeRuns ?? opts.runs ?? 3);
  const f = rel(j.file);
  warm(j.file);
  const count = spawnSync('bash', ['-c', `grep -E ${sh(PAT)} ${sh(f)} | grep -v -E ${sh(NEG)} | wc -l`], {
    cwd: ROOT,
  });
  const grepLines = Number(count.stdout.toString().trim());
  const methods = [
    {
      key: 'vigil',
      argv: [NODE, BIN, 'diagnose', f, '--format', 'json'],
      capture: true,
      check: vigilCheck(j.meta, notes, inputName(j)),
    },
    // the operator's pipeline; `exit ${PIPESTATUS[0]}` makes a first grep cut short by SIGPIPE visible
    {
      key: 'grep',
      argv: [
        'bash',
        '-c',
        `grep -E ${sh(PAT)} ${sh(f)} | grep -v -E ${sh(NEG)} > /dev/null; exit \${PIPESTATUS[0]}`,
      ],
      check: grepCheck,
    },
    { key: 'cat', argv: ['bash', '-c', `cat ${sh(f)} > /dev/null`] },
    NODE_E_0,
    { key: 'floor', argv: [NODE, READ_FLOOR, f] },
  ];
  log(
    `${inputName(j)}: ${runs} alternating rounds of vigil diagnose / grep pipeline / cat / node -e 0 / Node read floor`,
  );
  const r = await rounds(methods, runs, failures, inputName(j));
  return {
    size: j.size,
    shape: j.shape,
    name: inputName(j),
    rootCause: j.rootCause,
    bytes: j.meta.bytes,
    lines: j.meta.lines,
    grepLines,
    runs,
    vigil: summary(r.vigil),
    grep: summary(r.grep),
    cat: summary(r.cat),
    node: summary(r.node),
    floor: summary(r.floor),
    vsGrep: paired(r.vigil, r.grep),
    floorVsGrep: paired(r.floor, r.grep),
    vsCat: paired(r.vigil, r.cat),
    vsNode: paired(r.vigil, r.node),
    load: loadAverage(),
  };
}

/** The 1-minute load average as the row ends: the machine may be shared. */
const loadAverage = () => os.loadavg()[0];

async function benchStdin(j, opts, failures, notes) {
  const runs = j.meta.bytes < 5e8 ? (opts.runs ?? 3) : (opts.largeRuns ?? opts.runs ?? 3);
  const f = rel(j.file);
  warm(j.file);
  log(
    `${label(j.size)} stdin: ${runs} rounds of cat | vigil diagnose - / vigil diagnose FILE / cat | grep / cat | cat`,
  );
  const r = await rounds(
    [
      {
        key: 'stdin',
        argv: ['bash', '-c', `cat ${sh(f)} | ${sh(NODE)} ${BIN} diagnose - --format json`],
        capture: true,
        check: vigilCheck(j.meta, notes, `${label(j.size)} stdin`),
      },
      {
        key: 'file',
        argv: [NODE, BIN, 'diagnose', f, '--format', 'json'],
        capture: true,
        check: vigilCheck(j.meta, notes, label(j.size)),
      },
      // the operator's pipeline on the same stream
      {
        key: 'grep',
        argv: [
          'bash',
          '-c',
          `cat ${sh(f)} | grep -E ${sh(PAT)} | grep -v -E ${sh(NEG)} > /dev/null; exit \${PIPESTATUS[1]}`,
        ],
        check: grepCheck,
      },
      // what the pipe alone costs: the floor under `cat F | vigil diagnose -`
      { key: 'pipe', argv: ['bash', '-c', `cat ${sh(f)} | cat > /dev/null`] },
    ],
    runs,
    failures,
    `${label(j.size)} stdin`,
  );
  return {
    size: j.size,
    bytes: j.meta.bytes,
    stdin: summary(r.stdin),
    file: summary(r.file),
    grep: summary(r.grep),
    pipe: summary(r.pipe),
    vsFile: paired(r.stdin, r.file),
    vsGrep: paired(r.stdin, r.grep),
  };
}

async function benchGzip(j, opts, failures, notes) {
  const runs = opts.runs ?? 5;
  const gz = rel(ensureGzip(j));
  warm(gz);
  log(`${label(j.size)} .gz: ${runs} rounds of vigil diagnose FILE.gz / zcat | grep pipeline / gzip -dc`);
  const r = await rounds(
    [
      {
        key: 'vigil',
        argv: [NODE, BIN, 'diagnose', gz, '--format', 'json'],
        capture: true,
        check: vigilCheck(j.meta, notes, `${label(j.size)} .gz`),
      },
      {
        key: 'zgrep',
        argv: [
          'bash',
          '-c',
          `zcat ${sh(gz)} | grep -E ${sh(PAT)} | grep -v -E ${sh(NEG)} > /dev/null; exit \${PIPESTATUS[1]}`,
        ],
        check: grepCheck,
      },
      { key: 'gunzip', argv: ['bash', '-c', `gzip -dc ${sh(gz)} > /dev/null`] },
    ],
    runs,
    failures,
    `${label(j.size)} .gz`,
  );
  return {
    size: j.size,
    bytes: j.meta.bytes,
    gzBytes: fs.statSync(path.join(ROOT, gz)).size,
    vigil: summary(r.vigil),
    zgrep: summary(r.zgrep),
    gunzip: summary(r.gunzip),
    vsGrep: paired(r.vigil, r.zgrep),
    vsGunzip: paired(r.vigil, r.gunzip),
  };
}

/**
 * The bundled incident (1,551 lines) and `vigil --help`, paired with a bare `node -e 0`: what start-up costs
 * with a diagnosis and with no command loaded (help lists every command from their summaries).
 */
async function benchSmall(opts, failures) {
  const runs = Math.max(opts.runs ?? 11, 11);
  let rootCause = '?';
  log(
    `bundled incident: ${runs} alternating rounds of vigil diagnose ${INCIDENT} / vigil --help / node -e 0`,
  );
  const r = await rounds(
    [
      {
        key: 'vigil',
        argv: [NODE, BIN, 'diagnose', INCIDENT, '--format', 'json'],
        capture: true,
        check: (x) => {
          if (x.code !== 1) return `exit ${x.code} (a finding is 1): ${x.stderr.trim().slice(-300)}`;
          const message = JSON.parse(x.stdout)?.rootCause?.message ?? '';
          if (!message.includes('flashinfer-cubin version (0.6.3) does not match'))
            return `named ${JSON.stringify(message.slice(0, 80))}, not the flashinfer-cubin mismatch`;
          rootCause = '✓ flashinfer-cubin version (0.6.3) does not match flashinfer version (0.6.4)';
          return null;
        },
      },
      {
        key: 'help',
        argv: [NODE, BIN, '--help'],
        capture: true,
        check: (x) =>
          x.code === 0 && /^ {2}diagnose\b/m.test(x.stdout) && /^ {2}probe-config\b/m.test(x.stdout)
            ? null
            : `exit ${x.code}, no list of commands: ${x.stderr.trim().slice(-300)}`,
      },
      NODE_E_0,
    ],
    runs,
    failures,
    'incident',
  );
  const lines = fs.readFileSync(path.join(ROOT, INCIDENT), 'utf8').split('\n').length - 1;
  return {
    lines,
    rootCause,
    vigil: summary(r.vigil),
    node: summary(r.node),
    vsNode: paired(r.vigil, r.node),
    help: summary(r.help),
    helpVsNode: paired(r.help, r.node),
  };
}

async function benchCheck(opts, failures, count) {
  const runs = Math.max(opts.runs ?? 5, 5);
  const envDir = path.join(OUT, `env-${count}`);
  const site = path.join(envDir, 'lib', 'python3.12', 'site-packages');
  if (!fs.existsSync(site) || fs.readdirSync(site).filter((n) => n.endsWith('.dist-info')).length !== count) {
    log(`writing ${rel(envDir)} (${count} distributions)`);
    writeEnvironment({ count, out: envDir });
  }
  let distributions = null;
  const argv = [NODE, BIN, 'check', '--site-packages', rel(site), '--format', 'json'];
  log(`check: ${runs} runs of ${argv.join(' ')}`);
  const r = await rounds(
    [
      {
        key: 'check',
        argv,
        capture: true,
        check: (x) => {
          if (x.code !== 0 && x.code !== 1) return `exit ${x.code}: ${x.stderr.trim().slice(-400)}`;
          try {
            const j = JSON.parse(x.stdout);
            const list = j.distributions ?? j.environment?.distributions;
            distributions = Array.isArray(list)
              ? list.length
              : typeof list === 'number'
                ? list
                : distributions;
          } catch {
            return `output is not JSON: ${JSON.stringify(x.stdout.slice(0, 200))}`;
          }
          return null;
        },
      },
      NODE_E_0,
    ],
    runs,
    failures,
    `check ${count}`,
  );
  return {
    count,
    distributions,
    argv,
    ...summary(r.check),
    node: summary(r.node),
    code: r.check.at(-1)?.code,
  };
}

/** Reads utime+stime (seconds) of a process from /proc, or null. */
function procCpu(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return null;
  }
}
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100;

async function benchRun(opts, failures) {
  if (!haveTime) {
    failures.push('run: needs /usr/bin/time (apt-get install time)');
    return null;
  }
  const cpuFile = path.join(os.tmpdir(), `vigil-bench-chatty-${process.pid}.json`);
  fs.rmSync(cpuFile, { force: true });
  const tf = path.join(os.tmpdir(), `vigil-bench-run-${process.pid}.time`);
  const argv = [
    NODE,
    BIN,
    'run',
    '--no-preflight',
    '--quiet',
    '--',
    NODE,
    'bench/chatty-server.mjs',
    '--rate',
    String(opts.rate),
    '--seconds',
    String(opts.runSeconds),
  ];
  log(`run: ${argv.join(' ')} (${opts.runSeconds} s at ${opts.rate} lines/s)`);
  const t0 = process.hrtime.bigint();
  const child = spawn(TIME, ['-f', '%e %U %S %M', '-o', tf, ...argv, '--cpu-out', cpuFile], {
    cwd: ROOT,
    stdio: ['ignore', devnull, 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d) => {
    err = (err + d.toString()).slice(-4000);
  });
  // vigil is /usr/bin/time's only child; sample its own CPU (children excluded) from /proc
  const samples = [];
  let vigilPid = null;
  const sampler = setInterval(() => {
    if (vigilPid === null) {
      try {
        vigilPid =
          Number(
            fs.readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(' ')[0],
          ) || null;
      } catch {
        /* not started yet */
      }
    }
    if (vigilPid !== null) {
      const cpu = procCpu(vigilPid);
      if (cpu !== null) samples.push({ t: Number(process.hrtime.bigint() - t0) / 1e9, cpu });
    }
  }, 100);
  const code = await new Promise((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (code !== 0) {
    failures.push(`run: vigil run exited ${code}: ${err.trim().slice(-400)}`);
    return null;
  }
  const [, user, sys, rssKiB] = fs.readFileSync(tf, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  let chatty;
  try {
    chatty = JSON.parse(fs.readFileSync(cpuFile, 'utf8'));
  } catch {
    failures.push('run: the chatty server did not report its CPU (was it run, and to the end?)');
    return null;
  }
  const childCpu = (chatty.userUs + chatty.systemUs) / 1e6;
  const vigilCpu = user + sys - childCpu;
  // steady state: from 2 s after the start to the last sample
  const from = samples.find((s) => s.t >= 2) ?? samples[0];
  const to = samples.at(-1);
  const steady = from && to && to.t > from.t ? (to.cpu - from.cpu) / (to.t - from.t) : null;
  return {
    argv,
    wall,
    lines: chatty.lines,
    rate: chatty.lines / (chatty.wallMs / 1000),
    childCpu,
    vigilCpu,
    corePct: (100 * vigilCpu) / wall,
    steadyPct: steady === null ? null : 100 * steady,
    rssMiB: rssKiB / 1024,
  };
}

/**
 * `vigil watch --follow --log F` while the chatty server appends `--rate` lines a second to F: the CPU
 * vigil's own process spends (sampled from /proc, from 2 s on: the steady state, not the start-up) per
 * 1,000 lines the server wrote meanwhile, and as a share of one core.
 */
async function benchWatch(opts, failures) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-bench-watch-'));
  const logFile = path.join(dir, 'server.log');
  const cpuFile = path.join(dir, 'chatty.json');
  fs.writeFileSync(logFile, '');
  const seconds = opts.runSeconds;
  const argv = [NODE, BIN, 'watch', '--follow', '--log', logFile, '--state-dir', path.join(dir, 'state')];
  log(`watch: ${argv.join(' ')} on a server writing ${opts.rate} lines/s for ${seconds} s`);
  const out = fs.openSync(logFile, 'a');
  const vigil = spawn(argv[0], argv.slice(1), {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, XDG_CACHE_HOME: path.join(OUT, 'xdg-cache') },
  });
  let err = '';
  vigil.stderr.on('data', (d) => {
    err = (err + d.toString()).slice(-4000);
  });
  const server = spawn(
    NODE,
    [
      'bench/chatty-server.mjs',
      '--rate',
      String(opts.rate),
      '--seconds',
      String(seconds),
      '--cpu-out',
      cpuFile,
    ],
    { cwd: ROOT, stdio: ['ignore', out, 'ignore'] },
  );
  fs.closeSync(out);
  const t0 = process.hrtime.bigint();
  const samples = [];
  const sampler = setInterval(() => {
    const cpu = procCpu(vigil.pid);
    const lines = lineCount(logFile);
    if (cpu !== null) samples.push({ t: Number(process.hrtime.bigint() - t0) / 1e9, cpu, lines });
  }, 250);
  await new Promise((resolve) => server.on('close', resolve));
  // What the server wrote last is read before the count stops.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  clearInterval(sampler);
  vigil.kill('SIGTERM');
  const code = await new Promise((resolve) => vigil.on('close', resolve));
  fs.rmSync(dir, { recursive: true, force: true });
  if (code !== 0 && code !== 1) {
    failures.push(`watch: vigil watch exited ${code}: ${err.trim().slice(-400)}`);
    return null;
  }
  const from = samples.find((s) => s.t >= 2);
  const to = samples.at(-1);
  if (!from || !to || to.lines <= from.lines) {
    failures.push('watch: too few samples (a slower machine needs --run-seconds)');
    return null;
  }
  const cpu = to.cpu - from.cpu;
  return {
    rate: opts.rate,
    seconds,
    lines: to.lines - from.lines,
    cpuPer1000: (1000 * cpu) / (to.lines - from.lines),
    corePct: (100 * cpu) / (to.t - from.t),
    load: loadAverage(),
  };
}

/** Lines in a file so far (the chatty server's output). */
function lineCount(file) {
  const bytes = fs.readFileSync(file);
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}

// ---------------------------------------------------------------- report
/** The commit (and whether the tree differs from it) when the bench started, i.e. what dist/ was built from. */
function revision() {
  const out = (args) => spawnSync('git', args, { cwd: ROOT }).stdout?.toString().trim() ?? '';
  const head = out(['rev-parse', '--short', 'HEAD']);
  const dirty = out(['status', '--porcelain', '--untracked-files=no']);
  return head ? `${head}${dirty ? ' + uncommitted changes' : ''}` : 'unknown';
}
let revisionAtStart = 'unknown';

function machine() {
  const cpuinfo = fs.readFileSync('/proc/cpuinfo', 'utf8');
  const model = /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? 'unknown';
  const first = (cmd, args) => spawnSync(cmd, args).stdout?.toString().split('\n')[0].trim() ?? '?';
  return {
    nproc: first('nproc', []),
    model,
    memGiB: (os.totalmem() / 2 ** 30).toFixed(0),
    node: process.version,
    kernel: os.release(),
    grep: first('grep', ['--version']),
    date: new Date().toISOString().slice(0, 10),
    revision: revisionAtStart,
    load: os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' '),
  };
}

function fitLine(points) {
  // least squares wall = a + b * GB
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  const b = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
  return { slope: b, intercept: my - b * mx };
}

function report(res, opts, m) {
  const L = [];
  L.push(
    `Machine: ${m.nproc} CPUs (${m.model}), ${m.memGiB} GiB RAM, Linux ${m.kernel}, Node ${m.node}, ${m.grep}; ${m.date}; load average at the end ${m.load}. Vigil at ${m.revision}.`,
  );
  L.push('');
  if (res.sizes.length) {
    L.push(
      '| input | vigil diagnose s (min–max) | vigil MB/s | grep pipeline s | cat s | `node -e 0` s | Node read floor s | vigil/grep | floor/grep | vigil/node | vigil/cat | peak RSS MiB vigil / grep | load | root cause |',
    );
    L.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|');
    for (const r of res.sizes)
      L.push(
        `| ${r.name} (${r.bytes.toLocaleString('en-US')} B, ${r.lines.toLocaleString('en-US')} lines; grep finds ${r.grepLines.toLocaleString('en-US')}), ${r.runs} rounds | ` +
          `**${fmtS(r.vigil.wall)}** (${fmtS(r.vigil.min)}–${fmtS(r.vigil.max)}) | ${fmtMBs(r.bytes, r.vigil.wall)} | ${fmtS(r.grep.wall)} | ${fmtS(r.cat.wall)} | ${fmtS(r.node.wall)} | ${fmtS(r.floor.wall)} | ` +
          `**${r.vsGrep.toFixed(2)}** | ${r.floorVsGrep.toFixed(2)} | ${r.vsNode.toFixed(2)} | ${r.vsCat.toFixed(1)} | ${r.vigil.rssMiB.toFixed(0)} / ${r.grep.rssMiB.toFixed(0)} | ${r.load.toFixed(1)} | ${r.rootCause ?? '?'} |`,
      );
    for (const r of res.stdin)
      L.push(
        `| ${label(r.size)} via stdin: \`cat F \\| vigil diagnose -\` | **${fmtS(r.stdin.wall)}** (${fmtS(r.stdin.min)}–${fmtS(r.stdin.max)}) | ${fmtMBs(r.bytes, r.stdin.wall)} | | | | | | | ${r.stdin.rssMiB.toFixed(0)} | | | ${r.vsGrep.toFixed(2)}× \`cat F \\| grep …\` (${fmtS(r.grep.wall)} s); ${r.vsFile.toFixed(2)}× the file input; the pipe alone (\`cat F \\| cat\`) ${fmtS(r.pipe.wall)} s |`,
      );
    for (const r of res.gz)
      L.push(
        `| ${label(r.size)} as .gz (${(r.gzBytes / 1e6).toFixed(1)} MB); grep column: \`zcat \\| grep …\`, cat column: \`gzip -dc\` | **${fmtS(r.vigil.wall)}** (${fmtS(r.vigil.min)}–${fmtS(r.vigil.max)}) | ${fmtMBs(r.bytes, r.vigil.wall)} | ${fmtS(r.zgrep.wall)} | ${fmtS(r.gunzip.wall)} | | ${r.vsGrep.toFixed(2)} | | ${r.vsGunzip.toFixed(2)} | ${r.vigil.rssMiB.toFixed(0)} / ${r.zgrep.rssMiB.toFixed(0)} | | |`,
      );
    L.push('');
    const journals = res.sizes.filter((r) => r.shape === 'journal');
    if (journals.length >= 2) {
      const pts = (k) => journals.map((r) => ({ x: r.bytes / 1e9, y: r[k].wall }));
      const f = Object.fromEntries(['vigil', 'grep', 'cat'].map((k) => [k, fitLine(pts(k))]));
      L.push(
        `Per-GB slope of the journal (least squares over ${journals.map((r) => label(r.size)).join(', ')}): vigil **${f.vigil.slope.toFixed(3)} s/GB** ` +
          `(+${f.vigil.intercept.toFixed(3)} s fixed), grep ${f.grep.slope.toFixed(3)} s/GB, cat ${f.cat.slope.toFixed(3)} s/GB.`,
      );
      if (journals.length >= 3) {
        const seg = journals.slice(1).map((r, i) => {
          const p = journals[i];
          return `${label(p.size)}→${label(r.size)} ${((r.vigil.wall - p.vigil.wall) / ((r.bytes - p.bytes) / 1e9)).toFixed(3)} s/GB`;
        });
        L.push(`vigil's marginal cost per GB: ${seg.join(', ')}.`);
      }
      L.push('');
    }
  }
  if (res.small) {
    const x = res.small;
    L.push(
      `The bundled incident (\`vigil diagnose ${INCIDENT} --format json\`, ${x.lines.toLocaleString('en-US')} lines): **${(x.vigil.wall * 1000).toFixed(0)} ms** ` +
        `(${(x.vigil.min * 1000).toFixed(0)}–${(x.vigil.max * 1000).toFixed(0)}), \`node -e 0\` ${(x.node.wall * 1000).toFixed(0)} ms: **${x.vsNode.toFixed(2)}×** (paired), ` +
        `CPU ${(x.vigil.cpu * 1000).toFixed(0)} ms against ${(x.node.cpu * 1000).toFixed(0)} ms; ${x.rootCause}. ` +
        `\`vigil --help\` (no command's module loaded): ${(x.help.wall * 1000).toFixed(0)} ms, **${x.helpVsNode.toFixed(2)}×** \`node -e 0\`, ` +
        `CPU ${(x.help.cpu * 1000).toFixed(0)} ms.`,
    );
  }
  for (const c of res.checks)
    L.push(
      `\`vigil check\` on a generated ${c.count}-distribution environment: **${(c.wall * 1000).toFixed(0)} ms** median ` +
        `(${(c.min * 1000).toFixed(0)}–${(c.max * 1000).toFixed(0)}), \`node -e 0\` ${(c.node.wall * 1000).toFixed(0)} ms, peak RSS ${c.rssMiB.toFixed(0)} MiB, exit ${c.code}.`,
    );
  if (res.run)
    L.push(
      `\`vigil run\` following a server that printed ${res.run.lines.toLocaleString('en-US')} lines at ${Math.round(res.run.rate).toLocaleString('en-US')} lines/s: ` +
        `vigil's own CPU ${res.run.vigilCpu.toFixed(2)} s over ${res.run.wall.toFixed(1)} s = **${res.run.corePct.toFixed(1)} % of one core** ` +
        `(steady state ${res.run.steadyPct === null ? '?' : res.run.steadyPct.toFixed(1)} %; the server itself used ${res.run.childCpu.toFixed(2)} s), peak RSS ${res.run.rssMiB.toFixed(0)} MiB.`,
    );
  if (res.watch)
    L.push(
      `\`vigil watch --follow --log F\` while a server appends ${res.watch.rate.toLocaleString('en-US')} lines/s to F (steady state over ${res.watch.lines.toLocaleString('en-US')} lines): ` +
        `**${(res.watch.cpuPer1000 * 1000).toFixed(1)} ms of CPU per 1,000 lines**, ${res.watch.corePct.toFixed(1)} % of one core (load ${res.watch.load.toFixed(1)}).`,
    );
  L.push('');
  return L.join('\n');
}

function targets(res) {
  const t = [];
  for (const r of res.sizes.filter((x) => x.size === '1g'))
    t.push([
      `${r.name} ≤ ${TARGETS.grepRatio}× the grep pipeline`,
      r.vsGrep <= TARGETS.grepRatio,
      `${r.vsGrep.toFixed(2)}×`,
    ]);
  for (const r of res.gz.filter((x) => x.bytes >= 9e8))
    t.push([
      `${label(r.size)} .gz ≤ ${TARGETS.grepRatio}× \`zcat | grep …\``,
      r.vsGrep <= TARGETS.grepRatio,
      `${r.vsGrep.toFixed(2)}×`,
    ]);
  for (const r of res.stdin.filter((x) => x.bytes >= 9e8))
    t.push([
      `${label(r.size)} via stdin ≤ ${TARGETS.grepRatio}× the grep pipeline on the file`,
      r.vsGrep <= TARGETS.grepRatio,
      `${r.vsGrep.toFixed(2)}×`,
    ]);
  for (const r of [...res.sizes, ...res.stdin, ...res.gz].filter((x) => x.bytes >= 9e8)) {
    const rss = (r.vigil ?? r.stdin).rssMiB;
    t.push([
      `peak RSS ≤ ${TARGETS.rssMiB} MiB, ${r.name ?? label(r.size)}${r.stdin ? ' via stdin' : r.gzBytes ? ' .gz' : ''}`,
      rss <= TARGETS.rssMiB,
      `${rss.toFixed(0)} MiB`,
    ]);
  }
  const journals = res.sizes.filter((r) => r.shape === 'journal');
  if (journals.length >= 3) {
    const [a, b, c] = journals.slice(-3);
    const s1 = (b.vigil.wall - a.vigil.wall) / ((b.bytes - a.bytes) / 1e9);
    const s2 = (c.vigil.wall - b.vigil.wall) / ((c.bytes - b.bytes) / 1e9);
    // Linear means no cost that grows faster than the bytes (a quadratic path shows as a dearer second
    // step). A cheaper second step is the fixed start-up cost and the small size's noise: the first step
    // carries both (100 MB runs vary by a fifth), so it only fails the check when the second is dearer.
    t.push([
      'time linear in size (marginal s/GB of the larger step at most 1.2× the smaller)',
      s2 <= s1 * 1.2,
      `${s1.toFixed(3)} vs ${s2.toFixed(3)} s/GB`,
    ]);
  }
  if (res.small)
    t.push([
      `bundled incident ≤ ${TARGETS.incidentVsNode}× \`node -e 0\``,
      res.small.vsNode <= TARGETS.incidentVsNode,
      `${res.small.vsNode.toFixed(2)}×`,
    ]);
  for (const c of res.checks.filter((x) => x.count >= 600))
    t.push([
      `check on ${c.count} distributions < ${TARGETS.checkMs} ms`,
      c.wall * 1000 < TARGETS.checkMs,
      `${(c.wall * 1000).toFixed(0)} ms`,
    ]);
  for (const r of res.sizes.filter((x) => x.size === '10m' && x.shape === 'journal'))
    t.push([
      `${r.name} ≤ ${TARGETS_33.tenMbVsNode}× \`node -e 0\``,
      r.vsNode <= TARGETS_33.tenMbVsNode,
      `${r.vsNode.toFixed(2)}×`,
    ]);
  for (const r of res.sizes.filter((x) => x.size === '100m'))
    t.push([
      `${r.name} ≤ ${TARGETS_33.hundredMbVsGrep}× the grep pipeline`,
      r.vsGrep <= TARGETS_33.hundredMbVsGrep,
      `${r.vsGrep.toFixed(2)}×`,
    ]);
  if (res.watch)
    t.push([
      `watch at ${res.watch.rate} lines/s < ${TARGETS_33.watchCorePct} % of a core`,
      res.watch.corePct < TARGETS_33.watchCorePct,
      `${res.watch.corePct.toFixed(1)} %`,
    ]);
  if (res.run)
    t.push([
      `run at ${res.run.rate.toFixed(0)} lines/s < ${TARGETS.runCorePct} % of a core`,
      res.run.corePct < TARGETS.runCorePct,
      `${res.run.corePct.toFixed(1)} %`,
    ]);
  return t;
}

function commands(opts) {
  return [
    '```sh',
    'npm run build',
    `node bench/run.mjs --sizes ${opts.sizes.join(',')} --shape-sizes ${opts.shapeSizes.join(',')}${opts.runs ? ` --runs ${opts.runs}` : ''}${opts.largeRuns ? ` --large-runs ${opts.largeRuns}` : ''}${opts.only.length < SECTIONS.length ? ` --only ${opts.only.join(',')}` : ''} --write`,
    '# what it times, F = bench/out/journal-<size>[-<shape>].log (node bench/generate-journal.mjs --shape …):',
    'node dist/cli/bin.js diagnose F --format json',
    `bash -c "grep -E '${PAT}' F | grep -v -E '${NEG}' > /dev/null"`,
    "bash -c 'cat F > /dev/null'",
    `bash -c "cat F | node dist/cli/bin.js diagnose - --format json"   # vs cat F | grep …`,
    `node dist/cli/bin.js diagnose F.gz --format json   # vs zcat F.gz | grep …, and gzip -dc F.gz > /dev/null`,
    `node dist/cli/bin.js diagnose ${INCIDENT} --format json   # vs node -e 0`,
    'node dist/cli/bin.js check --site-packages bench/out/env-N/lib/python3.12/site-packages --format json   # N = 100, 600; vs node -e 0',
    `node dist/cli/bin.js run --no-preflight --quiet -- node bench/chatty-server.mjs --rate ${opts.rate} --seconds ${opts.runSeconds}`,
    '```',
  ].join('\n');
}

function writeBenchmarks(block) {
  const file = path.join(ROOT, 'BENCHMARKS.md');
  const BEGIN = '<!-- bench:begin (written by `node bench/run.mjs --write`; edit outside the markers) -->';
  const END = '<!-- bench:end -->';
  let text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n\n';
  const i = text.indexOf('<!-- bench:begin');
  const k = text.indexOf(END);
  const body = `${BEGIN}\n${block.trim()}\n${END}`;
  text =
    i !== -1 && k > i
      ? text.slice(0, i) + body + text.slice(k + END.length)
      : `${text.trimEnd()}\n\n${body}\n`;
  fs.writeFileSync(file, text);
  log(`updated ${rel(file)}`);
}

// ---------------------------------------------------------------- main
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  warmupRounds = opts.warmup > 0 ? 1 : 0;
  if (!fs.existsSync(path.resolve(ROOT, BIN))) {
    console.error(`bench: ${BIN} is missing; run \`npm run build\` first.`);
    return 2;
  }
  revisionAtStart = revision();
  if (snapshot) {
    // others may rebuild dist/ while this runs: time a copy (inside the repo, so node_modules resolve)
    const copy = path.join(OUT, 'vigil-dist');
    fs.rmSync(copy, { recursive: true, force: true });
    fs.cpSync(path.join(ROOT, 'dist'), copy, { recursive: true });
    BIN = rel(path.join(copy, 'cli', 'bin.js'));
    log(`timing a snapshot of dist/ in ${rel(copy)}`);
  }
  if (!haveTime)
    log(
      `${TIME} is missing (Debian: apt-get install time); peak RSS and CPU will be n/a and the run section skipped`,
    );
  fs.mkdirSync(OUT, { recursive: true });
  const failures = [];
  const notes = new Set();
  const res = { sizes: [], stdin: [], gz: [], small: null, checks: [], run: null, watch: null };
  const inputs = [];
  if (opts.only.includes('diagnose')) for (const size of opts.sizes) inputs.push([size, 'journal']);
  for (const size of opts.shapeSizes) {
    if (opts.only.includes('shapes')) for (const shape of opts.shapes) inputs.push([size, shape]);
    const streamed = opts.only.includes('stdin') || opts.only.includes('gz');
    if (streamed && !inputs.some(([s, shape]) => s === size && shape === 'journal'))
      inputs.push([size, 'journal']);
  }
  // Smallest first: a wrong answer stops the bench before minutes of timing.
  inputs.sort((a, b) => parseSize(a[0]) - parseSize(b[0]));
  for (const [size, shape] of inputs) {
    const j = ensureJournal(size, shape);
    // one untimed diagnosis first
    const x = await measure([NODE, BIN, 'diagnose', rel(j.file), '--format', 'json'], { capture: true });
    const v =
      x.code === 0 || x.code === 1
        ? verify(x.stdout, j.meta)
        : { ok: false, why: `exit ${x.code}: ${x.stderr.trim().slice(-400)}` };
    j.rootCause = (v.ok ? '✓ ' : '✗ named ') + `${(v.name ?? v.why).replace(/\|/g, '\\|')}…`;
    if (!v.ok) {
      console.error(`bench: WRONG DIAGNOSIS of ${rel(j.file)}: ${v.why}`);
      failures.push(`${inputName(j)}: ${v.why}`);
      if (!opts.keepGoing) {
        console.error('bench: stopping: the diagnosis is wrong (--keep-going times it anyway)');
        return 1;
      }
    } else for (const n of v.notes) notes.add(`${inputName(j)}: ${n}`);
    const timed = shape === 'journal' ? opts.only.includes('diagnose') && opts.sizes.includes(size) : true;
    if (timed) res.sizes.push(await benchSize(j, opts, failures, notes));
    if (shape === 'journal' && opts.shapeSizes.includes(size)) {
      if (opts.only.includes('stdin')) res.stdin.push(await benchStdin(j, opts, failures, notes));
      if (opts.only.includes('gz')) res.gz.push(await benchGzip(j, opts, failures, notes));
    }
    cleanUp(j, opts);
  }
  if (opts.only.includes('small')) res.small = await benchSmall(opts, failures);
  if (opts.only.includes('check'))
    for (const count of opts.envCounts) res.checks.push(await benchCheck(opts, failures, count));
  if (opts.only.includes('run')) res.run = await benchRun(opts, failures);
  if (opts.only.includes('watch')) res.watch = await benchWatch(opts, failures);

  const m = machine();
  const table = report(res, opts, m);
  const t = targets(res);
  const targetText = t.length
    ? [
        'Targets (issue 13; run: issue 6):',
        '',
        ...t.map(([what, ok, got]) => `- ${ok ? '✓' : '✗'} ${what}: ${got}`),
        '',
      ].join('\n')
    : '';
  const noteText = notes.size ? ['Notes:', '', ...[...notes].map((n) => `- ${n}`), ''].join('\n') : '';
  console.log(`\n${table}\n${targetText}\n${noteText}`);
  if (failures.length) {
    console.error(`bench: ${failures.length} failure(s):\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  }
  if (opts.write) {
    const failText = failures.length
      ? ['**Failures** (timed anyway with --keep-going):', '', ...failures.map((f) => `- ${f}`), ''].join(
          '\n',
        )
      : '';
    if (failures.length && !opts.keepGoing) log('not writing BENCHMARKS.md: there were failures');
    else
      writeBenchmarks(`${table}\n${targetText}\n${failText}\n${noteText}\nCommands:\n\n${commands(opts)}\n`);
  }
  if (failures.length) return 1;
  if (opts.strict && t.some(([, ok]) => !ok)) return 1;
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
