import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SourceError, UsageError } from '../../src/errors.js';
import { openSource, type SourceSpec } from '../../src/sources/index.js';
import { pathWith, readAll, tempDir, writeFakeCommand } from './helpers/fake-command.js';

// docker and kubectl need a daemon or a cluster, so these tests put a real fake program first on PATH:
// a shell script that records its arguments and prints canned output.

const stdin = Readable.from([]);

async function fake(name: string, body: string) {
  const dir = await tempDir();
  await writeFakeCommand(dir, name, `printf '%s\\n' "$@" > "${join(dir, 'args')}"\n${body}`);
  const args = async (): Promise<string[]> =>
    (await readFile(join(dir, 'args'), 'utf8')).trimEnd().split('\n');
  return { env: pathWith(dir), args };
}

function failure(spec: SourceSpec, env: Record<string, string | undefined>, timeoutMs?: number) {
  return openSource(spec, { stdin, env }, { timeoutMs })
    .then((source) => readAll(source.chunks))
    .then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => error,
    );
}

describe('docker logs', () => {
  it('merges stdout and stderr in arrival order, without timestamps', async () => {
    const { env, args } = await fake(
      'docker',
      `echo 'INFO starting'; sleep 0.1; echo 'Traceback (most recent call last):' >&2; sleep 0.1
echo 'RuntimeError: boom' >&2; sleep 0.1; echo 'INFO after'`,
    );
    const source = await openSource({ kind: 'docker', container: 'vllm-1', since: '10m' }, { stdin, env });
    expect(await readAll(source.chunks)).toBe(
      'INFO starting\nTraceback (most recent call last):\nRuntimeError: boom\nINFO after\n',
    );
    expect(await args()).toEqual(['logs', '--since=10m', 'vllm-1']);
    expect(source).toMatchObject({ describe: 'docker logs of vllm-1', formats: ['docker'], warnings: [] });
  });

  it('fails with the daemon error line', async () => {
    const { env } = await fake(
      'docker',
      `echo 'Error response from daemon: No such container: ghost' >&2; exit 1`,
    );
    const error = await failure({ kind: 'docker', container: 'ghost' }, env);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toBe(
      'docker logs failed (status 1): Error response from daemon: No such container: ghost',
    );
  });

  it('says when docker is missing', async () => {
    const dir = await tempDir();
    await expect(
      openSource({ kind: 'docker', container: 'x' }, { stdin, env: { PATH: dir } }),
    ).rejects.toThrow(/^docker was not found on PATH; /);
  });

  it('stops a command that outlives its timeout', async () => {
    const { env } = await fake('docker', 'echo partial; exec sleep 10');
    const error = await failure({ kind: 'docker', container: 'slow' }, env, 300);
    expect((error as Error).message).toBe('docker logs did not finish within 0.3 s');
  });

  it('kills the command when the reader stops early', async () => {
    const dir = await tempDir();
    await writeFakeCommand(dir, 'docker', `echo $$ > "${join(dir, 'pid')}"\nexec yes 'INFO tick'`);
    const source = await openSource({ kind: 'docker', container: 'chatty' }, { stdin, env: pathWith(dir) });
    for await (const chunk of source.chunks) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    const pid = Number(await readFile(join(dir, 'pid'), 'utf8'));
    await expect.poll(() => isRunning(pid), { timeout: 5000 }).toBe(false);
  });

  it.runIf(hasProgram('docker'))('reports the real docker failing on an unknown container', async () => {
    const error = await failure(
      { kind: 'docker', container: 'vigil-test-no-such-container' },
      process.env,
      20_000,
    );
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toMatch(/^docker logs failed \(status 1\): \S/);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('kubectl logs', () => {
  it('passes pod, namespace, container and --previous', async () => {
    const { env, args } = await fake('kubectl', `echo 'INFO from the pod'; echo 'W1130 warning noise' >&2`);
    const source = await openSource(
      { kind: 'kube', pod: 'vllm-0', namespace: 'llm', container: 'engine', previous: true },
      { stdin, env },
    );
    expect(await readAll(source.chunks)).toBe('INFO from the pod\n');
    expect(await args()).toEqual(['logs', 'vllm-0', '--namespace=llm', '--container=engine', '--previous']);
    expect(source.describe).toBe('previous kubectl logs of llm/vllm-0 (container engine)');
  });

  it('fails with the last stderr line, after glog noise', async () => {
    const { env } = await fake(
      'kubectl',
      `echo 'E1130 02:26:31 memcache.go:265] couldn'"'"'t get current server API group list' >&2
echo 'Error from server (NotFound): pods "ghost" not found' >&2; exit 1`,
    );
    const error = await failure({ kind: 'kube', pod: 'ghost' }, env);
    expect((error as Error).message).toBe(
      'kubectl logs failed (status 1): Error from server (NotFound): pods "ghost" not found',
    );
  });

  it('says when kubectl is missing', async () => {
    const dir = await tempDir();
    await expect(openSource({ kind: 'kube', pod: 'x' }, { stdin, env: { PATH: dir } })).rejects.toThrow(
      /^kubectl was not found on PATH; /,
    );
  });

  it('refuses invalid names before running anything', async () => {
    const { env, args } = await fake('kubectl', 'echo never');
    await expect(
      openSource({ kind: 'kube', pod: 'x', namespace: '--all' }, { stdin, env }),
    ).rejects.toBeInstanceOf(UsageError);
    await expect(args()).rejects.toThrow(/ENOENT/);
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function hasProgram(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
