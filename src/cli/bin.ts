#!/usr/bin/env -S node --
import module from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadCachedCli, type CachedCli } from './code-cache.js';
import { setStartFlags } from './start-flags.js';

// A closed pipe (vigil diagnose x | head) is not an error worth a trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
});

/** 'binary' in the standalone executable (describe-install.ts reads it too; here no chunk is loaded for it). */
declare const VIGIL_BUILD: string | undefined;

const argv = process.argv.slice(2);
// The command, as registerCommands (commands/index.ts) will read it.
const command = argv.find((arg) => !arg.startsWith('-')) ?? '';
// Before the code cache is read, after process.stdout is made (its modules keep Node's own cache).
setStartFlags(process.execArgv);
// The CLI runs from one CommonJS bundle with V8's code cache kept in the user's cache folder (code-cache.ts),
// on every Node: on Node 22 too, where it took 0.74x the time of the ES module chunks under Node's own
// compile cache (the bundled incident, Node 22.23, paired). `vigil diagnose` runs from a bundle of its own,
// without the other commands (scripts/bundle-cli.mjs). The standalone binary is one script already, with
// its code cache inside it (scripts/build-binary.mjs).
const cached: CachedCli | null =
  typeof VIGIL_BUILD !== 'string'
    ? loadCachedCli(
        fileURLToPath(
          new URL(command === 'diagnose' ? './chunks/cli-diagnose.cjs' : './chunks/cli.cjs', import.meta.url),
        ),
        process.env,
        command,
      )
    : null;
// Where that cache cannot serve (VIGIL_CODE_CACHE=0, no cache folder of this user's own), Node 22.1 and
// later keep the compiled code of the ES module chunks on disk (NODE_COMPILE_CACHE, or a folder under the
// system's temp folder) before they are imported.
if (cached === null) (module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// Imported after the cache is on (a static import would compile before that line runs), and without a
// top-level await: the standalone binary runs this file as one CommonJS script (scripts/build-binary.mjs).
void (cached === null ? import('./run-cli.js') : Promise.resolve(cached))
  .then(({ runCli }) =>
    runCli(argv, {
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
    cached?.save();
  });
