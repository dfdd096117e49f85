#!/usr/bin/env node
// bundle-cli.mjs — writes dist/cli/bin.js as one bundle (commands stay separate chunks, loaded when run).
// `node scripts/bundle-cli.mjs OUTDIR` writes OUTDIR/bin.js instead: a build to compare against
// (bench/compare.mjs).
// Loading ~250 small modules cost about 0.08 s of every run's start-up; the library (dist/index.js) stays
// as tsc writes it.
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = process.argv[2] === undefined ? join(root, 'dist/cli') : resolve(process.argv[2]);
rmSync(join(outdir, 'chunks'), { recursive: true, force: true });
await build({
  entryPoints: {
    bin: join(root, 'src/cli/bin.ts'),
    // Beside the chunk that starts it (system/prescan-thread.ts looks next to itself).
    'chunks/prescan-worker': join(root, 'src/system/prescan-worker.ts'),
  },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir,
  entryNames: '[dir]/[name]',
  chunkNames: 'chunks/[name]-[hash]',
  // Bundled CommonJS dependencies call require(); an ES module has none of its own.
  banner: {
    js: "import { createRequire as vigilRequire } from 'node:module'; const require = vigilRequire(import.meta.url);",
  },
  allowOverwrite: true,
  logLevel: 'warning',
});
chmodSync(join(outdir, 'bin.js'), 0o755);
