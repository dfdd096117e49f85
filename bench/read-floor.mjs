// read-floor.mjs — the least any Node program can do with a log: start, read the file in 1 MiB pieces and count
// where `rror` occurs in each (no lines split, no report, no module of Vigil's loaded; an ES module like dist/cli/bin.js). bench/run.mjs times it
// beside `vigil diagnose` and the grep pipeline: where this floor is already near the grep pipeline's time, no
// Node CLI that reads the whole log can beat the pipeline by much, however little it does with the bytes.
//
//   node bench/read-floor.mjs FILE
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import process from 'node:process';

const fd = fs.openSync(process.argv[2], 'r');
const piece = Buffer.allocUnsafe(1 << 20);
let found = 0;
for (let read = 0, at = 0; (read = fs.readSync(fd, piece, 0, piece.length, at)) > 0; at += read) {
  const bytes = read === piece.length ? piece : piece.subarray(0, read);
  for (let i = bytes.indexOf('rror'); i !== -1; i = bytes.indexOf('rror', i + 4)) found++;
}
process.stdout.write(`${found}\n`);
