import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/run-cli-captured.js';
import { tempDir, writeFakeCommand } from './helpers/fake-command.js';

// No podman runs here: a stand-in replays what podman prints for test/fixtures/podman/quadlet-2-containers
// (inspect JSON, logs) and records each call's arguments, so these tests hold the arguments we send.
const PODMAN = `
echo "$*" >> "$CALLS"
for a in "$@"; do name="$a"; done
case "$1" in
  inspect)
    if [ -f "$FIXTURE/inspect/$name.json" ]; then cat "$FIXTURE/inspect/$name.json"
    else echo '[]'; echo "Error: no such container $name" >&2; exit 125; fi ;;
  logs)
    if [ -f "$FIXTURE/logs/$name.log" ]; then cat "$FIXTURE/logs/$name.log"
    else echo "Error: no container with name or ID \\"$name\\" found: no such container" >&2; exit 125; fi ;;
  *) echo "Error: unrecognized command \\\`podman $1\\\`" >&2; exit 125 ;;
esac
`;

async function standInPodman(): Promise<{ env: Record<string, string>; calls: () => Promise<string[]> }> {
  const dir = await tempDir();
  await writeFakeCommand(dir, 'podman', PODMAN);
  const calls = join(dir, 'calls.log');
  return {
    env: {
      PATH: `${dir}:/usr/bin:/bin`,
      FIXTURE: join(process.cwd(), 'test/fixtures/podman/quadlet-2-containers'),
      CALLS: calls,
      XDG_STATE_HOME: join(dir, 'state'),
      XDG_CONFIG_HOME: join(dir, 'config'),
    },
    calls: async () => (await readFile(calls, 'utf8').catch(() => '')).split('\n').filter(Boolean),
  };
}

describe('--podman NAME (podman stand-in)', () => {
  it('diagnose reads podman logs and names the cause', async () => {
    const podman = await standInPodman();
    const result = await runCliCaptured(
      ['diagnose', '--podman', 'vllm-a', '--since', '1h', '--format', 'json'],
      {
        env: podman.env,
      },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { signature: { id: string }; input: { source: string } };
    expect(report.signature.id).toBe('cuda-out-of-memory');
    expect(report.input.source).toBe('podman logs of vllm-a');
    // The inspect after the log reads the container's compose labels, for the fix's rebuild line.
    expect(await podman.calls()).toEqual(['logs --since=1h vllm-a', 'inspect --type=container vllm-a']);
  });

  it('watch reads the last run from podman inspect’s start time and ends on its exit', async () => {
    const podman = await standInPodman();
    const result = await runCliCaptured(['watch', '--podman', 'vllm-a'], { env: podman.env });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('torch.OutOfMemoryError: CUDA out of memory');
    expect(result.stdout).toContain('restart loop: 3 failed starts');
    expect(result.stdout).toContain('read: podman logs of vllm-a');
    expect(await podman.calls()).toEqual([
      // The first reads the container's compose labels for the fix; the second its last start.
      'inspect --type=container vllm-a',
      'inspect --type=container vllm-a',
      'logs --since=2025-08-14T13:50:01.734180117+02:00 vllm-a',
    ]);
  });

  it('several names are a fleet, and an OOM kill with no log is its own group', async () => {
    const podman = await standInPodman();
    const result = await runCliCaptured(['diagnose', '--podman', 'vllm-a', 'vllm-b', '--format', 'json'], {
      env: podman.env,
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      target: string;
      groups: { kind: string; signature: string | null; members: string[] }[];
    };
    expect(report.target).toBe('2 containers');
    expect(report.groups.map((group) => [group.kind, group.signature, group.members])).toEqual([
      ['killed', null, ['vllm-b']],
      ['log', 'cuda-out-of-memory', ['vllm-a']],
    ]);
  });

  it('a missing podman, a bad name or two runtimes at once is one line and exit 2', async () => {
    const empty = await tempDir();
    const env = { PATH: empty, XDG_STATE_HOME: join(empty, 's'), XDG_CONFIG_HOME: join(empty, 'c') };
    const missing = await runCliCaptured(['diagnose', '--podman', 'vllm-a'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^vigil: podman was not found on PATH[^\n]*\n$/);
    const bad = await runCliCaptured(['diagnose', '--podman', '--rm'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('invalid container name "--rm"');
    const both = await runCliCaptured(['watch', '--podman', 'a', '--docker', 'b'], { env });
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('vigil: give one of --docker, --podman\n');
  });
});
