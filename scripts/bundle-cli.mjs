#!/usr/bin/env node
// bundle-cli.mjs — writes dist/cli/bin.js, a script that imports no chunk, and chunks/run-cli.js, the CLI as
// ES module chunks (commands stay separate chunks, loaded when run).
// `node scripts/bundle-cli.mjs OUTDIR` writes OUTDIR/bin.js instead: a build to compare against
// (bench/compare.mjs).
// Loading ~250 small modules cost about 0.08 s of every run's start-up; the library (dist/index.js) stays
// as tsc writes it.
// It also writes chunks/cli.cjs: the whole CLI as one CommonJS script, which bin.js runs on Node without
// module.enableCompileCache so that V8's code cache can spare compiling it (src/cli/code-cache.ts). Its
// first line names its content's hash, which keys that cache.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = process.argv[2] === undefined ? join(root, 'dist/cli') : resolve(process.argv[2]);
rmSync(join(outdir, 'chunks'), { recursive: true, force: true });
// Bundled CommonJS dependencies call require(); an ES module has none of its own.
const banner = {
  js: "import { createRequire as vigilRequire } from 'node:module'; const require = vigilRequire(import.meta.url);",
};
await build({
  entryPoints: {
    // What bin.js imports where it runs the ES modules (no code cache of its own, or Node's compile cache).
    'chunks/run-cli': join(root, 'src/cli/run-cli.ts'),
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
  banner,
  allowOverwrite: true,
  logLevel: 'warning',
});
// bin.js on its own, importing no chunk: Node's ES module loader reads each file it imports through
// its thread pool, and makes a module of each builtin imported; here builtins come through require().
await build({
  entryPoints: [join(root, 'src/cli/bin.ts')],
  outfile: join(outdir, 'bin.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner,
  allowOverwrite: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'entry',
      setup(plugin) {
        plugin.onResolve({ filter: /^\.\/run-cli\.js$/ }, (args) =>
          args.importer.endsWith(join('src', 'cli', 'bin.ts'))
            ? { path: './chunks/run-cli.js', external: true }
            : undefined,
        );
        plugin.onResolve({ filter: /^node:/ }, (args) =>
          args.namespace === 'builtin'
            ? { path: args.path, external: true }
            : { path: args.path, namespace: 'builtin' },
        );
        plugin.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
          contents: `module.exports = require(${JSON.stringify(args.path)});`,
          loader: 'js',
        }));
      },
    },
  ],
});
chmodSync(join(outdir, 'bin.js'), 0o755);

// zod, yaml and re2js (a third of the code) serve only user signatures and snapshots, loaded by import() when
// needed: each goes in a script of its own beside cli.cjs, so a command that never needs them reads none
// of it. (Their own CommonJS files from node_modules would cost more: zod's alone takes 60 ms to require.)
const VENDORED = ['zod', 'yaml', 're2js'];
const cjs = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  write: false,
  logLevel: 'warning',
};
for (const name of VENDORED) {
  const vendor = await build({ ...cjs, stdin: { contents: `export * from '${name}';`, resolveDir: root } });
  writeFileSync(join(outdir, `chunks/vendor-${name}.cjs`), vendor.outputFiles[0].text);
}
const single = await build({
  ...cjs,
  entryPoints: [join(root, 'src/cli/run-cli.ts')],
  outfile: join(outdir, 'chunks/cli.cjs'),
  // Beside the other chunks, so what the code finds next to itself (prescan-worker.js, ../bin.js) is there.
  define: { 'import.meta.url': 'vigilSelfUrl' },
  banner: { js: "const vigilSelfUrl = require('node:url').pathToFileURL(__filename).href;" },
  plugins: [
    {
      name: 'vendored',
      setup(plugin) {
        const filter = new RegExp(`^(?:${VENDORED.join('|')})$`);
        plugin.onResolve({ filter }, (args) => ({ path: `./vendor-${args.path}.cjs`, external: true }));
      },
    },
  ],
});
// Read as Latin-1, an ASCII file is a one-byte string at once; UTF-8 decoding the 1.1 MB took 7 ms of
// every run. esbuild escapes non-ASCII text in strings already; what it leaves is in comments, regex
// literals and String.raw templates that build regexes, where `\uXXXX` means the same character.
const text = single.outputFiles[0].text.replace(
  /[\u0080-\uffff]/g,
  (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
);
const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
writeFileSync(join(outdir, 'chunks/cli.cjs'), `// vigil-cli ${hash}\n${text}`);
