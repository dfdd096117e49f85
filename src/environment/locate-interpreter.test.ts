import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateInterpreter } from './locate-interpreter.js';

const root = mkdtempSync(join(tmpdir(), 'vigil-interpreter-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function script(path: string, text: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, 0o755);
  return path;
}

const venv = join(root, 'opt', 'venv');
script(join(venv, 'bin', 'python'), '#!/bin/sh\n');
writeFileSync(join(venv, 'pyvenv.cfg'), 'home = /usr/bin\n');
const bare = join(root, 'usr', 'bin', 'python3.12');
script(bare, '#!/bin/sh\n');
const long = join(root, 'a very long folder', 'bin', 'python');
script(long, '#!/bin/sh\n');
const env = { PATH: join(root, 'usr', 'bin') };

describe('locateInterpreter: the interpreter a server command runs', () => {
  it.each([
    [
      'a console script in a venv',
      script(join(venv, 'bin', 'vllm'), `#!${venv}/bin/python\nimport sys\n`),
      { venv, interpreter: join(venv, 'bin', 'python') },
    ],
    [
      'a console script outside the venv whose shebang names the venv',
      script(join(root, 'srv', 'vllm'), `#!${venv}/bin/python\n`),
      { venv, interpreter: join(venv, 'bin', 'python') },
    ],
    [
      'a shebang naming a plain interpreter',
      script(join(root, 'tools', 'bin', 'sglang'), `#!${bare}\n`),
      { python: bare, interpreter: bare },
    ],
    [
      "pip's sh form for a long interpreter path",
      script(join(root, 'tools', 'bin', 'lmdeploy'), `#!/bin/sh\n'''exec' "${long}" "$0" "$@"\n' '''\n`),
      { python: long, interpreter: long },
    ],
    [
      'an env shebang, resolved on PATH',
      script(join(root, 'tools', 'bin', 'tgi'), '#!/usr/bin/env python3.12\n'),
      { python: bare, interpreter: bare },
    ],
    ['python -m', join(venv, 'bin', 'python'), { venv, interpreter: join(venv, 'bin', 'python') }],
  ])('%s', (_name, command, expected) => {
    expect(locateInterpreter(command, env)).toMatchObject(expected);
  });

  it('follows a link to the console script (/usr/local/bin/vllm → the venv)', () => {
    const link = join(root, 'usr', 'local', 'bin', 'vllm');
    mkdirSync(join(link, '..'), { recursive: true });
    symlinkSync(join(venv, 'bin', 'vllm'), link);
    expect(locateInterpreter(link, env)).toMatchObject({ venv });
  });

  it('is null for a program that is not Python', () => {
    const binary = script(join(root, 'tools', 'bin', 'ollama'), '\x7fELF\x02\x01\x01');
    expect(locateInterpreter(binary, env)).toBeNull();
    expect(locateInterpreter('no-such-program', env)).toBeNull();
  });
});
