#!/usr/bin/env -S node --
import module from 'node:module';

// Node 22.1 and later keep the compiled code of the modules below on disk, so later runs skip compiling
// them (the CLI's chunks are about 0.5 MB of code). Older Node has no such cache: nothing changes there.
// It goes where Node puts it (NODE_COMPILE_CACHE, or a folder under the system's temp folder).
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// A closed pipe (vigil diagnose x | head) is not an error worth a trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

// Imported after the cache is on (a static import would compile before that line runs), and without a
// top-level await: the standalone binary runs this file as one CommonJS script (scripts/build-binary.mjs).
void import('./run-cli.js')
  .then(({ runCli }) =>
    runCli(process.argv.slice(2), {
      stdout: process.stdout,
      stderr: process.stderr,
      // Made only when a command reads it as a stream: `vigil diagnose -` reads a pipe from fd 0 itself.
      get stdin() {
        return process.stdin;
      },
      stdinFd: 0,
      env: process.env,
      cwd: process.cwd(),
    }),
  )
  .then((code) => {
    process.exitCode = code;
  });
