#!/usr/bin/env node
// start-phases.mjs — where one `vigil diagnose` process's CPU goes, phase by phase, as dist/cli/bin.js runs it:
// Node's own start, reading the CLI bundle, reading its code cache, compiling it with that cache, running the
// modules' top-level code, and the command itself (with its report, written to nowhere).
//
//   node bench/start-phases.mjs [--runs 5] [--dist dist] FILE...
//
// Each run is a fresh process (this file with --child) timing itself with process.cpuUsage (user + sys, ms);
// the medians are printed per file. The code cache is the one bin.js keeps ($XDG_CACHE_HOME/vigil/code or
// ~/.cache/vigil/code): run `node dist/cli/bin.js diagnose FILE` once first so that it is filled.
import { spawnSync } from 'node:child_process';
import console from 'node:console';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import process from 'node:process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Script, constants } from 'node:vm';

const PHASES = ['node', 'readBundle', 'readCache', 'compile', 'init', 'command'];

if (process.argv[2] === '--child') await child(process.argv[3], process.argv.slice(4));
else parent(process.argv.slice(2));

function parent(argv) {
  const take = (flag, fallback) => {
    const at = argv.indexOf(flag);
    if (at === -1) return fallback;
    const [value] = argv.splice(at, 2).slice(1);
    return value;
  };
  const runs = Number(take('--runs', '5'));
  const dist = path.resolve(take('--dist', 'dist'));
  if (argv.length === 0) {
    console.error('usage: node bench/start-phases.mjs [--runs 5] [--dist dist] FILE...');
    process.exit(2);
  }
  console.log(`| input | ${PHASES.join(' | ')} | total |`);
  console.log(`|---|${PHASES.map(() => '--:').join('|')}|--:|`);
  for (const file of argv) {
    const rows = [];
    for (let run = 0; run < runs; run++) {
      const done = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--child', dist, 'diagnose', file],
        {
          encoding: 'utf8',
        },
      );
      const line = done.stdout.trim().split('\n').pop() ?? '';
      if (!line.startsWith('{')) {
        console.error(`start-phases: ${file}: no figures (${done.stderr.trim().split('\n').pop()})`);
        process.exit(1);
      }
      rows.push(JSON.parse(line));
    }
    const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const phases = PHASES.map((phase) => median(rows.map((row) => row[phase])));
    const total = median(rows.map((row) => PHASES.reduce((sum, phase) => sum + row[phase], 0)));
    console.log(
      `| ${path.basename(file)} | ${phases.map((ms) => ms.toFixed(1)).join(' | ')} | ${total.toFixed(1)} |`,
    );
  }
}

/** One run, as bin.js makes it (code-cache.ts), each phase's CPU ms printed as one JSON line. */
async function child(dist, args) {
  const marks = [];
  const mark = () => {
    const used = process.cpuUsage();
    marks.push((used.user + used.system) / 1000);
  };
  mark();
  // The V8 flags bin.js sets before it reads the cache, where the build has them: that cache is keyed by them.
  const flags = path.join(dist, 'cli', 'start-flags.js');
  // (dist/cli is CommonJS to Node, tsc's module an ES module: imported as text.)
  if (existsSync(flags)) {
    const text = encodeURIComponent(readFileSync(flags, 'utf8'));
    (await import(`data:text/javascript,${text}`)).setStartFlags(process.execArgv);
  }
  // The diagnosis's own bundle where the build has one (bin.js runs `vigil diagnose` from it), else the CLI's.
  const own = path.join(dist, 'cli', 'chunks', 'cli-diagnose.cjs');
  const bundle = existsSync(own) ? own : path.join(dist, 'cli', 'chunks', 'cli.cjs');
  const source = readFileSync(bundle, 'latin1');
  const hash = /^\/\/ vigil-cli ([0-9a-f]{16})\n/.exec(source)?.[1];
  mark();
  const home = process.env.XDG_CACHE_HOME ?? path.join(process.env.HOME ?? '/', '.cache');
  const folder = path.join(home, 'vigil', 'code');
  const name = readdirSync(folder).find(
    (file) => file.startsWith(`${hash}-`) && file.endsWith('-diagnose.bin'),
  );
  if (name === undefined)
    throw new Error(`no code cache for this bundle in ${folder}: run vigil diagnose once`);
  const cachedData = readFileSync(path.join(folder, name));
  mark();
  // Bundles before 2026-12-04 were not written as the function compiled (code-cache.ts wrapped them).
  const text = source.includes('\n(function (exports, require')
    ? source
    : `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(text, {
    filename: bundle,
    cachedData,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (script.cachedDataRejected === true) throw new Error('V8 refused the code cache');
  mark();
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
  mark();
  const nowhere = new Writable({ write: (_chunk, _encoding, done) => done() });
  await module.exports.runCli(args, {
    stdout: nowhere,
    stderr: nowhere,
    get stdin() {
      return process.stdin;
    },
    stdinFd: 0,
    env: process.env,
    cwd: process.cwd(),
  });
  mark();
  const figures = Object.fromEntries(
    PHASES.map((phase, at) => [phase, at === 0 ? marks[0] : marks[at] - marks[at - 1]]),
  );
  console.log(JSON.stringify(figures));
}
