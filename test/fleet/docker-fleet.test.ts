import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/run-cli-captured.js';
import { standInDocker } from './helpers/stand-ins.js';

interface FleetJson {
  target: string;
  groups: { kind: string; signature: string | null; members: string[] }[];
}

describe('diagnose --compose / --docker NAME... (docker stand-in)', () => {
  it('reads every container of a compose project and names the one docker OOM-killed', async () => {
    const docker = await standInDocker('compose-2-containers');
    const result = await runCliCaptured(['diagnose', '--compose', 'llm', '--format', 'json'], {
      env: docker.env,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as FleetJson;
    expect(report.target).toBe('compose project llm');
    expect(report.groups.map((group) => [group.kind, group.signature, group.members])).toEqual([
      ['killed', null, ['llm-vllm-2']],
      ['log', 'cuda-out-of-memory', ['llm-vllm-1']],
    ]);
    const calls = await docker.calls();
    expect(calls[0]).toBe('ps --all --filter=label=com.docker.compose.project=llm --format={{.Names}}');
    expect(calls).toContain('logs llm-vllm-2');
  });

  it('reads the containers named after --docker the same way', async () => {
    const docker = await standInDocker('compose-2-containers');
    const result = await runCliCaptured(['diagnose', '--docker', 'llm-vllm-1', 'llm-vllm-2'], {
      env: docker.env,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('vigil fleet: 2 containers: 2 of 2 failed, 2 root causes');
    expect(result.stdout).toMatch(/killed from outside: OOMKilled \(exit 137\)/);
  });

  it('refuses a compose project name outside compose’s grammar', async () => {
    const docker = await standInDocker('compose-2-containers');
    const result = await runCliCaptured(['diagnose', '--compose', '--filter=x'], { env: docker.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'vigil: invalid compose project "--filter=x": use lower-case letters, digits, _ and -\n',
    );
  });
});

describe('a fleet’s fix restarts each member’s own owner (docker stand-in)', () => {
  it('one cause in two compose services: each member’s fix rebuilds its own service', async () => {
    const docker = await standInDocker('compose-2-services-package-mismatch');
    const json = await runCliCaptured(['diagnose', '--compose', 'llm', '--format', 'json'], {
      env: docker.env,
    });
    expect(json.stderr).toBe('');
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as {
      groups: { members: string[] }[];
      members: { name: string; diagnosis: { signature: { fix: string; tryNow?: string } } }[];
    };
    expect(report.groups.map((group) => group.members)).toEqual([['llm-vllm-1', 'llm-vllm-chat-1']]);
    const fixOf = (name: string) =>
      report.members.find((member) => member.name === name)?.diagnosis.signature;
    expect(fixOf('llm-vllm-1')?.fix).toMatch(/^docker compose -p llm up -d --build vllm$/m);
    expect(fixOf('llm-vllm-chat-1')?.fix).toMatch(/^docker compose -p llm up -d --build vllm-chat$/m);
    expect(fixOf('llm-vllm-chat-1')?.tryNow).toMatch(/^docker exec llm-vllm-chat-1 /);
    const calls = await docker.calls();
    expect(calls).toContain('inspect --type=container llm-vllm-1');
    expect(calls).toContain('inspect --type=container llm-vllm-chat-1');

    const text = await runCliCaptured(['diagnose', '--compose', 'llm'], { env: docker.env });
    expect(text.stdout).toMatch(/^ {2}fix for llm-vllm-1: /m);
    expect(text.stdout).toMatch(/^ {2}fix for llm-vllm-chat-1: /m);
    expect(text.stdout).toMatch(/^ {4}docker compose -p llm up -d --build vllm-chat$/m);
    const markdown = await runCliCaptured(['diagnose', '--compose', 'llm', '--format', 'markdown'], {
      env: docker.env,
    });
    expect(markdown.stdout).toContain('### Fixes');
    expect(markdown.stdout).toMatch(
      /For `llm-vllm-chat-1`:\n\n```sh\n[^`]*docker compose -p llm up -d --build vllm-chat\n```/,
    );
  });
});
