import { closeSync, existsSync, openSync, readSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { findExecutable } from './find-executable.js';

/** The Python environment a server command runs in, and how that was found. */
export interface CommandInterpreter {
  /** The interpreter to ask (with -I) when the environment has no pyvenv.cfg to read it from. */
  python?: string;
  /** A virtual environment (or conda prefix) to read from its files. */
  venv?: string;
  /** The interpreter the server will run, for the report: "/opt/venv/bin/python". */
  interpreter: string;
  /** Where it came from: "the shebang of /opt/venv/bin/vllm". */
  how: string;
}

const PYTHON = /^python[\d.]*$/;

/**
 * The interpreter a server command runs: the command itself when it is a python (`python -m vllm...`),
 * else the one a console script's shebang names (`#!/opt/venv/bin/python3`, pip's `'''exec' ...` form
 * for long paths, `#!/usr/bin/env python3`), else the environment whose bin/ holds the program (its
 * pyvenv.cfg or conda-meta). Null when the command is not a Python program (ollama, llama-server).
 */
export function locateInterpreter(
  command: string,
  env: Record<string, string | undefined>,
  cwd = '.',
): CommandInterpreter | null {
  const found = findExecutable(command, env, cwd);
  if (found === null) return null;
  // Keep a venv's own bin/python link: resolving it would land in the base interpreter and its packages.
  if (PYTHON.test(basename(found))) return withEnvironment(found, `the command ${command}`);
  const program = realpathSync(found);
  const shebang = readShebangInterpreter(program, env);
  if (shebang !== null && PYTHON.test(basename(shebang))) {
    return withEnvironment(shebang, `the shebang of ${program}`);
  }
  const prefix = environmentPrefix(dirname(program));
  if (prefix === null) return null;
  const python = ['python', 'python3'].map((name) => join(prefix, 'bin', name)).find(existsSync);
  return { venv: prefix, interpreter: python ?? prefix, how: `the environment of ${program}` };
}

/** A venv's interpreter is read from the venv's files; any other is asked. */
function withEnvironment(python: string, how: string): CommandInterpreter {
  const prefix = environmentPrefix(dirname(python));
  return prefix === null ? { python, interpreter: python, how } : { venv: prefix, interpreter: python, how };
}

/** The prefix of `PREFIX/bin` when PREFIX is a virtual environment or a conda environment. */
function environmentPrefix(bin: string): string | null {
  if (basename(bin) !== 'bin') return null;
  const prefix = dirname(bin);
  return existsSync(join(prefix, 'pyvenv.cfg')) || existsSync(join(prefix, 'conda-meta')) ? prefix : null;
}

/** The interpreter named by a script's first line(s), or null for a binary or a script without one. */
export function readShebangInterpreter(path: string, env: Record<string, string | undefined>): string | null {
  const head = readHead(path, 1024);
  if (!head.startsWith('#!')) return null;
  const [first = '', second = ''] = head.split('\n');
  const words = first.slice(2).trim().split(/\s+/);
  // pip writes `#!/bin/sh` and `'''exec' "/long/path/bin/python" "$0" "$@"` when the path is too long.
  const exec = /^'''exec' (?:"([^"]+)"|(\S+))/.exec(second);
  if (exec !== null && basename(words[0] ?? '') === 'sh') return exec[1] ?? exec[2] ?? null;
  if (basename(words[0] ?? '') === 'env') {
    const name = words.slice(1).find((word) => !word.startsWith('-'));
    return name === undefined ? null : (findExecutable(name, env) ?? null);
  }
  return words[0] === undefined || words[0] === '' ? null : words[0];
}

function readHead(path: string, size: number): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buffer = Buffer.alloc(size);
    const count = readSync(fd, buffer, 0, size, 0);
    return buffer.subarray(0, count).toString('latin1');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
