#!/usr/bin/env node
// bundle-cli.mjs — writes dist/cli/bin.js, a script that imports no chunk, and chunks/run-cli.js, the CLI as
// ES module chunks (commands stay separate chunks, loaded when run).
// `node scripts/bundle-cli.mjs OUTDIR` writes OUTDIR/bin.js instead: a build to compare against
// (bench/compare.mjs).
// Loading ~250 small modules cost about 0.08 s of every run's start-up; the library (dist/index.js) stays
// as tsc writes it.
// It also writes chunks/cli.cjs: the whole CLI as one CommonJS script, which bin.js runs on Node without
// module.enableCompileCache so that V8's code cache can spare compiling it (src/cli/code-cache.ts), and
// chunks/cli-diagnose.cjs, the same without the commands other than diagnose, which bin.js runs for
// `vigil diagnose`. Their first line names the hash of both, which keys that cache.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import console from 'node:console';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = process.argv[2] === undefined ? join(root, 'dist/cli') : resolve(process.argv[2]);
// OUTDIR is a folder of its own: a package.json there that is not this one is someone's, and stays.
const scope = join(outdir, 'package.json');
const scopeText = `${JSON.stringify({ type: 'commonjs' })}\n`;
if (existsSync(scope) && readFileSync(scope, 'utf8') !== scopeText) {
  console.error(`bundle-cli: ${scope} exists and is not the build's own; give an empty folder`);
  process.exit(2);
}
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
// bin.js on its own, importing no chunk, and as CommonJS: Node runs an ES module entry through its ES module
// loader (about 8 ms of every run on Node 20: its modules loaded, the file read through the thread pool),
// a CommonJS one through the loader it has started already. dist/cli/package.json says so; the chunks stay
// ES modules (chunks/package.json). bin.js reaches them only through import(), which esbuild leaves as it is.
await build({
  entryPoints: [join(root, 'src/cli/bin.ts')],
  outfile: join(outdir, 'bin.js'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  define: { 'import.meta.url': 'vigilBinUrl' },
  banner: { js: "'use strict';\nconst vigilBinUrl = require('node:url').pathToFileURL(__filename).href;" },
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
      },
    },
  ],
});
writeFileSync(scope, scopeText);
writeFileSync(join(outdir, 'chunks/package.json'), `${JSON.stringify({ type: 'module' })}\n`);
chmodSync(join(outdir, 'bin.js'), 0o755);

/**
 * Node's modules that a bare `node` has not loaded yet, each required when the code first reads one of its
 * exports rather than when the module that imports it starts: a diagnosis imports the ssh, container and
 * supervision code it may never run, and with it child_process, net, the streams, zlib and worker_threads
 * (about 80 of Node's own modules, compiled on every run). The stand-in has a getter for each export the
 * building Node's module has; esbuild's imports read them only where the code uses them.
 */
const LAZY_BUILTINS = [
  'assert',
  'async_hooks',
  'child_process',
  'crypto',
  'dgram',
  'diagnostics_channel',
  'dns',
  'fs/promises',
  'http',
  'https',
  'inspector',
  'net',
  'os',
  'perf_hooks',
  'readline',
  'readline/promises',
  'stream',
  'stream/promises',
  'string_decoder',
  'timers/promises',
  'tls',
  'tty',
  'v8',
  'worker_threads',
  'zlib',
];

function lazyBuiltins() {
  return {
    name: 'lazy-builtins',
    setup(plugin) {
      plugin.onResolve({ filter: /^(?:node:)?[a-z_0-9]+(?:\/[a-z_]+)?$/ }, (args) => {
        const name = args.path.replace(/^node:/, '');
        if (!LAZY_BUILTINS.includes(name)) return undefined;
        if (args.namespace === 'lazy-builtin') return { path: `node:${name}`, external: true };
        return { path: name, namespace: 'lazy-builtin' };
      });
      plugin.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
        const exported = Object.keys(await import(`node:${args.path}`)).filter((key) => key !== 'default');
        const getters = exported.map(
          (key) => `  get ${JSON.stringify(key)}() { return load()[${JSON.stringify(key)}]; },`,
        );
        return {
          contents: [
            'let loaded;',
            `const load = () => (loaded ??= require(${JSON.stringify(`node:${args.path}`)}));`,
            `module.exports = {\n${getters.join('\n')}\n};`,
          ].join('\n'),
          loader: 'js',
        };
      });
    },
  };
}

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
/**
 * The command modules commands/index.ts imports when their command runs, stood in for in a bundle built for
 * one command: that bundle runs only that command (bin.ts picks it by the same name registerCommands reads).
 */
function onlyCommand(command) {
  const commands = join('src', 'cli', 'commands', 'index.ts');
  return {
    name: 'only-command',
    setup(plugin) {
      plugin.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) =>
        args.kind === 'dynamic-import' && args.importer.endsWith(commands) && args.path !== `./${command}.js`
          ? { path: args.path, namespace: 'other-command' }
          : undefined,
      );
      plugin.onLoad({ filter: /.*/, namespace: 'other-command' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`${args.path}: not in the ${command} bundle`)});`,
        loader: 'js',
      }));
    },
  };
}

// Two bundles: the whole CLI (chunks/cli.cjs), and the diagnosis alone (chunks/cli-diagnose.cjs, about half
// of it), read on every `vigil diagnose` instead: each run reads, holds and hands V8 the whole script, and
// the commands diagnose never runs were 0.6 MB of the 1.24.
const BUNDLES = [
  { file: 'chunks/cli.cjs', plugins: [] },
  { file: 'chunks/cli-diagnose.cjs', plugins: [onlyCommand('diagnose')] },
];
const texts = [];
for (const { file, plugins } of BUNDLES) {
  const single = await build({
    ...cjs,
    // Every run reads and holds the whole script (1.66 MB as written, 1.24 MB without spaces and comments):
    // its names stay (errors.ts reads a class's own name), so a trace still names the functions.
    minifyWhitespace: true,
    minifySyntax: true,
    entryPoints: [join(root, 'src/cli/run-cli.ts')],
    outfile: join(outdir, file),
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
      lazyBuiltins(),
      ...plugins,
    ],
  });
  // Read as Latin-1, an ASCII file is a one-byte string at once; UTF-8 decoding the 1.1 MB took 7 ms of
  // every run. esbuild escapes non-ASCII text in strings already; what it leaves is in comments, regex
  // literals and String.raw templates that build regexes, where `\uXXXX` means the same character.
  texts.push(
    single.outputFiles[0].text.replace(
      /[\u0080-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  );
}
// One hash for the build, on the first line of both: it keys their code caches, and a run that writes its
// cache removes those of other builds (code-cache.ts); each command's cache file is its own bundle's.
const hash = createHash('sha256');
for (const text of texts) hash.update(text);
const digest = hash.digest('hex').slice(0, 16);
// Written as the function the code cache compiles (code-cache.ts), so a run reads it and compiles it as it
// is rather than copying 1.2 MB into a wrapper first.
BUNDLES.forEach(({ file }, index) =>
  writeFileSync(
    join(outdir, file),
    `// vigil-cli ${digest}\n(function (exports, require, module, __filename, __dirname) {${texts[index]}\n})`,
  ),
);
