#!/usr/bin/env -S node --
import { runCli } from './run-cli.js';

// A closed pipe (vigil diagnose x | head) is not an error worth a trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

// No top-level await: the standalone binary runs this file as one CommonJS script (scripts/build-binary.mjs).
void runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
}).then((code) => {
  process.exitCode = code;
});
