import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SourceError } from '../../src/errors.js';
import { openSource, type SourceSpec } from '../../src/sources/index.js';
import { expectOneLineError, fakeBin, fakeRan, runVigil, spawnVigil, tempDir } from './cli-harness.js';

/** Each source, the program it runs, and what that program says when it fails. */
const SOURCES = [
  {
    program: 'journalctl',
    argv: ['diagnose', '--unit', 'vllm-kimi-k25'],
    failure: 'Failed to open journal: Permission denied',
  },
  {
    program: 'docker',
    argv: ['diagnose', '--docker', 'vllm-server'],
    failure: 'Error response from daemon: No such container: vllm-server',
  },
  {
    program: 'kubectl',
    argv: ['diagnose', '--kube', 'vllm-0', '-n', 'inference'],
    failure: 'Error from server (NotFound): pods "vllm-0" not found',
  },
] as const;

describe.each(SOURCES)('$program', ({ program, argv, failure }) => {
  it('missing from PATH: exit 2, one line naming it', async () => {
    const empty = await tempDir();
    expectOneLineError(await runVigil([...argv], { env: { PATH: empty } }), new RegExp(program));
  });

  it('failing (exit 1 with a message): exit 2, one line with its message', async () => {
    const bin = await fakeBin({ [program]: { stderr: failure, status: 1 } });
    const result = await runVigil([...argv], { env: { PATH: bin } });
    expectOneLineError(result, new RegExp(program));
    expect(await fakeRan(bin, program)).toBe(true);
    expect(result.stderr).toContain(failure);
  });

  it('failing, in a real process: exit 2, one line', async () => {
    const bin = await fakeBin({ [program]: { stderr: failure, status: 1 } });
    expectOneLineError(await spawnVigil([...argv], { env: { PATH: bin } }), new RegExp(program));
  });

  it('missing, in a real process: exit 2, one line', async () => {
    const empty = await tempDir();
    expectOneLineError(await spawnVigil([...argv], { env: { PATH: empty } }), new RegExp(program));
  });

  it('killed by a signal: exit 2, one line', async () => {
    const bin = await fakeBin({ [program]: { stderr: 'Killed', status: 137 } });
    expectOneLineError(await runVigil([...argv], { env: { PATH: bin } }));
  });
});

describe('names that would inject options are refused before anything runs', () => {
  it.each([
    ['docker', ['diagnose', '--docker=--help']],
    ['docker', ['diagnose', '--docker', '-v']],
    ['docker', ['diagnose', '--docker', 'x;rm -rf /']],
    ['kubectl', ['diagnose', '--kube=--all-namespaces']],
    ['kubectl', ['diagnose', '--kube', 'pod', '-n', '--kubeconfig=/tmp/evil']],
    ['kubectl', ['diagnose', '--kube', 'pod', '--container', '$(id)']],
    ['journalctl', ['diagnose', '--unit', 'x.service; rm -rf /']],
    ['journalctl', ['diagnose', '--unit', 'a b']],
  ])('%s %j', async (program, argv) => {
    const bin = await fakeBin({ [program]: { stderr: 'should not run', status: 0 } });
    expectOneLineError(await runVigil(argv, { env: { PATH: bin } }));
    expect(await fakeRan(bin, program), `${program} was run`).toBe(false);
  });
});

describe('a program that hangs is stopped by the timeout', () => {
  it.each<[string, SourceSpec]>([
    ['journalctl', { kind: 'unit', unit: 'vllm' }],
    ['docker', { kind: 'docker', container: 'vllm' }],
    ['kubectl', { kind: 'kube', pod: 'vllm-0' }],
  ])('%s', async (program, spec) => {
    const bin = await fakeBin({ [program]: { stderr: 'waiting...', status: 0, hang: true } });
    const started = performance.now();
    const error: unknown = await (async () => {
      const source = await openSource(
        spec,
        { stdin: Readable.from([]), env: { PATH: bin } },
        { timeoutMs: 500 },
      );
      for await (const _chunk of source.chunks) void _chunk;
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toMatch(/did not finish|timed out|timeout/i);
    expect((error as Error).message).not.toContain('\n');
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
