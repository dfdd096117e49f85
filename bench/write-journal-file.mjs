#!/usr/bin/env node
// write-journal-file.mjs — a real systemd journal file from a journald short-format log (such as
// generate-journal.mjs writes), through systemd-journal-remote, for the journal-reading benchmarks.
//
//   node bench/write-journal-file.mjs --log FILE.log --out FILE.journal [--unit vllm.service]
//
// Each line becomes one entry as test/sources/helpers/write-journal.ts's entriesFromShortLog makes them
// (systemd[1] lines with UNIT and INVOCATION_ID, the others with _SYSTEMD_UNIT and _SYSTEMD_INVOCATION_ID; a
// systemd "Starting" opens the next invocation), streamed in the journal export format.
import process from 'node:process';
import console from 'node:console';
import { spawn } from 'node:child_process';
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

const REMOTE = ['/lib/systemd/systemd-journal-remote', '/usr/lib/systemd/systemd-journal-remote'].find(
  (path) => existsSync(path),
);
const SHORT_LINE = /^(\w{3}) (\d{2}) (\d{2}):(\d{2}):(\d{2}) (\S+) ([^\s[]+)(?:\[(\d+)\])?: (.*)$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const BOOT_ID = '0123456789abcdef0123456789abcdef';

function invocationIdFor(n) {
  return (n + 1).toString(16).padStart(32, 'a');
}

/** One export-format entry for one short-format line, or null for a line that is not one. */
function exportEntry(line, state, unit) {
  const match = SHORT_LINE.exec(line);
  if (match === null) return null;
  const [, month, day, hour, minute, second, host, ident, pid, message] = match;
  const systemd = ident === 'systemd' && pid === '1';
  if (systemd && message.startsWith('Starting ')) state.invocation += 1;
  const id = invocationIdFor(Math.max(state.invocation, 0));
  const millis = Date.UTC(2026, MONTHS.indexOf(month), +day, +hour, +minute, +second);
  state.index += 1;
  const fields = [
    `__REALTIME_TIMESTAMP=${millis * 1000 + (state.index % 1_000_000)}`,
    `__MONOTONIC_TIMESTAMP=${1_000_000 + state.index}`,
    `_BOOT_ID=${BOOT_ID}`,
    `_HOSTNAME=${host}`,
    `SYSLOG_IDENTIFIER=${ident}`,
    `MESSAGE=${message}`,
    ...(pid === undefined ? [] : [`_PID=${pid}`]),
    '_UID=0',
    ...(systemd
      ? ['_COMM=systemd', '_SYSTEMD_UNIT=init.scope', `UNIT=${unit}`, `INVOCATION_ID=${id}`]
      : ['_COMM=python3', `_SYSTEMD_UNIT=${unit}`, `_SYSTEMD_INVOCATION_ID=${id}`]),
  ];
  return `${fields.join('\n')}\n\n`;
}

async function main() {
  const { values } = parseArgs({
    options: { log: { type: 'string' }, out: { type: 'string' }, unit: { type: 'string' } },
  });
  if (values.log === undefined || values.out === undefined || !values.out.endsWith('.journal')) {
    console.error('usage: node bench/write-journal-file.mjs --log FILE.log --out FILE.journal [--unit NAME]');
    process.exit(2);
  }
  if (REMOTE === undefined) {
    console.error('systemd-journal-remote is not installed: apt-get install systemd-journal-remote');
    process.exit(2);
  }
  const unit = values.unit ?? 'vllm.service';
  const child = spawn(REMOTE, [`--output=${values.out}`, '--split-mode=none', '-'], {
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  const closed = new Promise((resolve) => child.on('close', resolve));
  const state = { invocation: -1, index: 0 };
  let batch = '';
  for await (const line of createInterface({ input: createReadStream(values.log), crlfDelay: Infinity })) {
    batch += exportEntry(line, state, unit) ?? '';
    if (batch.length > 1 << 20) {
      if (!child.stdin.write(batch)) await new Promise((resolve) => child.stdin.once('drain', resolve));
      batch = '';
    }
  }
  child.stdin.end(batch);
  const code = await closed;
  if (code !== 0) {
    console.error(`systemd-journal-remote exited ${code}`);
    process.exit(1);
  }
  console.log(`${values.out}: ${state.index} entries`);
}

await main();
