import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Static guard for issue 7: subprocesses take argument arrays (never a shell) and a timeout.
 * It scans the sources as text, which is crude but catches the mistakes that matter: `shell: true`,
 * `exec`/`execSync` (which always run a shell), `sh -c`, and a file that spawns without any timeout.
 */

interface Finding {
  line: number;
  problem: string;
}

const CHILD_PROCESS_IMPORT =
  /import\s+(?:(\w+)\s*,?\s*)?(?:\{([^}]*)\}|\*\s+as\s+(\w+))?\s*from\s*['"](?:node:)?child_process['"]/g;
const SHELL_FUNCTIONS = new Set(['exec', 'execSync']);
const SPAWNING = /\b(?:spawn|spawnSync|execFile|execFileSync|fork)\s*\(/;

function lineOf(source: string, index: number): number {
  return source.slice(0, index).split('\n').length;
}

/** What is unsafe about one source file's use of child processes. */
function findUnsafeSubprocesses(source: string): Finding[] {
  const findings: Finding[] = [];
  const report = (index: number, problem: string) => findings.push({ line: lineOf(source, index), problem });

  for (const match of source.matchAll(/\bshell\s*:\s*(?!false\b)[^\s,}]+/g)) {
    report(match.index, `${match[0]}: spawn without a shell (shell: false) and pass an argument array`);
  }
  for (const match of source.matchAll(/['"`](?:\/bin\/)?(?:ba|da|z)?sh['"`]\s*,\s*\[\s*['"`]-c['"`]/g)) {
    report(match.index, 'sh -c runs a shell: call the program with an argument array');
  }
  for (const match of source.matchAll(/require\(\s*['"](?:node:)?child_process['"]\s*\)/g)) {
    report(match.index, 'require(child_process): import spawn from node:child_process');
  }

  let importsChildProcess = false;
  for (const match of source.matchAll(CHILD_PROCESS_IMPORT)) {
    importsChildProcess = true;
    const [, defaultName, named, namespace] = match;
    for (const part of (named ?? '').split(',')) {
      const imported =
        part
          .trim()
          .split(/\s+as\s+/)[0]
          ?.trim() ?? '';
      if (SHELL_FUNCTIONS.has(imported))
        report(match.index, `${imported} runs a shell: use spawn or execFile`);
    }
    for (const alias of [defaultName, namespace]) {
      if (alias === undefined) continue;
      for (const use of source.matchAll(new RegExp(`\\b${alias}\\.(exec|execSync)\\s*\\(`, 'g'))) {
        report(use.index, `${alias}.${use[1] ?? ''} runs a shell: use spawn or execFile`);
      }
    }
  }
  if (importsChildProcess && SPAWNING.test(source) && !/timeout/i.test(source)) {
    const spawnAt = SPAWNING.exec(source)?.index ?? 0;
    report(spawnAt, 'spawns a program without a timeout: pass timeout or kill it on a timer');
  }
  return findings;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : sourceFiles(path);
    return /\.(?:ts|mts|js|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Files allowed a shell, each for a reason checked by hand: the lifeline's watcher is a fixed script with its
 * values passed as positional parameters (never spliced into the script), and it must outlive vigil, so it
 * has no timeout of its own (it ends with the pipe from vigil).
 */
const DELIBERATE = new Set(['src/supervision/lifeline.ts']);

describe('subprocess safety in src/', () => {
  it('no shell, no exec/execSync, a timeout wherever a program is spawned', () => {
    const files = sourceFiles(join(ROOT, 'src')).filter((file) => !DELIBERATE.has(relative(ROOT, file)));
    expect(files.length).toBeGreaterThan(10);
    const problems = files.flatMap((file) =>
      findUnsafeSubprocesses(readFileSync(file, 'utf8')).map(
        ({ line, problem }) => `${relative(ROOT, file)}:${line}: ${problem}`,
      ),
    );
    expect(problems).toEqual([]);
  });
});

describe('findUnsafeSubprocesses', () => {
  it.each([
    [
      'shell: true',
      "import { spawn } from 'node:child_process';\nspawn('ls', [], { shell: true, timeout: 1 });",
    ],
    [
      'shell: a variable',
      "import { spawn } from 'node:child_process';\nspawn('ls', [], { shell: useShell, timeout: 1 });",
    ],
    ['exec import', "import { exec } from 'node:child_process';\nexec('ls');"],
    ['execSync import, renamed', "import { spawn, execSync as run } from 'child_process';\nrun('ls');"],
    ['namespace exec', "import * as cp from 'node:child_process';\ncp.exec('ls');"],
    ['default import execSync', "import cp from 'node:child_process';\ncp.execSync('ls');"],
    ['sh -c', "import { spawn } from 'node:child_process';\nspawn('sh', ['-c', cmd], { timeout: 1 });"],
    ['no timeout', "import { spawn } from 'node:child_process';\nspawn('journalctl', ['-u', unit]);"],
    ['require', "const cp = require('child_process');"],
  ])('flags %s', (_name, source) => {
    expect(findUnsafeSubprocesses(source)).not.toEqual([]);
  });

  it.each([
    ['RegExp#exec', 'const m = /x/.exec(text); const n = PATTERN.exec(line);'],
    [
      'spawn with arrays and a timeout',
      "import { spawn } from 'node:child_process';\nspawn('docker', ['logs', name], { shell: false, timeout: 5000 });",
    ],
    [
      'execFile with a timeout',
      "import { execFile } from 'node:child_process';\nexecFile('kubectl', ['logs', pod], { timeout: 5000 });",
    ],
    [
      'a timer instead of the option',
      "import { spawn } from 'node:child_process';\nconst c = spawn('x', []);\nsetTimeout(() => c.kill(), options.timeoutMs);",
    ],
    ['no child process at all', 'export const shellQuote = (s: string) => s;'],
  ])('accepts %s', (_name, source) => {
    expect(findUnsafeSubprocesses(source)).toEqual([]);
  });
});
