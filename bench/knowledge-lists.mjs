#!/usr/bin/env node
// knowledge-lists.mjs — what the knowledge lists cost a line that may matter: each list's plain alternation
// against anyOf (the lists' words looked for first, in one pass for all lists), both in this process, in
// alternating rounds, on the first 20,000 lines of LOG that mayMatter keeps.
//
//   npm run build && node bench/knowledge-lists.mjs [LOG]   (default: bench/out/journal-100m-request-errors.log)
import console from 'node:console';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL } from 'node:url';

const dist = new URL('../dist/diagnosis/knowledge/', import.meta.url);
const load = (name) => import(new URL(name, dist).href);
const { anyOf, PASS_AFTER } = await load('any-of.js');
const markers = await load('markers.js');
const { NOISE_PATTERNS } = await load('noise.js');
const { FAILURE_LINES } = await load('failure-lines.js');
const { STOP_REQUESTS, SHUTDOWN_PHRASES } = await load('shutdown.js');
const { WRAPPER_PATTERNS } = await load('wrappers.js');
const { TRIGGER, STRUCTURE, MARKERS, mayMatter } = await load('may-matter.js');

const lists = [
  markers.START_MARKERS,
  markers.READY_MARKERS,
  markers.DEATH_MARKERS,
  markers.CAUSE_HINTS,
  NOISE_PATTERNS,
  FAILURE_LINES.map((row) => row.pattern),
  STOP_REQUESTS,
  SHUTDOWN_PHRASES,
  WRAPPER_PATTERNS,
  [TRIGGER, STRUCTURE, MARKERS],
];
// What anyOf was before the pass: one alternation of the case-sensitive patterns, one of the folded ones.
const plain = lists.map((patterns) => {
  const join = (list, flags) =>
    list.length === 0 ? null : new RegExp(list.map((p) => `(?:${p.source})`).join('|'), flags);
  const exact = join(
    patterns.filter((p) => !p.ignoreCase),
    '',
  );
  const folded = join(
    patterns.filter((p) => p.ignoreCase),
    'i',
  );
  return (text) => (exact?.test(text) ?? false) || (folded?.test(text) ?? false);
});
const gated = lists.map((patterns) => anyOf(patterns));
// Past the questions a short log asks, so anyOf answers through its pass.
const warm = anyOf([/warm-up/]);
for (let i = 0; i < PASS_AFTER; i++) warm('');

const file = process.argv[2] ?? 'bench/out/journal-100m-request-errors.log';
const lines = fs
  .readFileSync(file, 'utf8')
  .split('\n')
  .filter((line) => mayMatter(line))
  .slice(0, 20_000);
let differ = 0;
for (const line of lines) gated.forEach((test, i) => (test(line) !== plain[i](line) ? differ++ : 0));
if (differ > 0) {
  console.error(`knowledge-lists: anyOf and the plain alternations disagree ${differ} times`);
  process.exit(1);
}
const time = (tests) => {
  const start = performance.now();
  for (const line of lines) for (const test of tests) test(line);
  return ((performance.now() - start) * 1000) / lines.length;
};
const rounds = { plain: [], anyOf: [] };
for (let r = 0; r < 6; r++) {
  for (const [name, tests] of r % 2 === 0
    ? [
        ['plain', plain],
        ['anyOf', gated],
      ]
    : [
        ['anyOf', gated],
        ['plain', plain],
      ]) {
    rounds[name].push(time(tests));
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
console.log(`${lines.length} lines of ${file} that may matter, ${lists.length} lists, 6 alternating rounds`);
for (const [name, values] of Object.entries(rounds)) {
  console.log(
    `${name.padEnd(6)} median ${median(values).toFixed(2)} µs a line (${values.map((v) => v.toFixed(2)).join(' ')})`,
  );
}
