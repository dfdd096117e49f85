import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { wrapCommand } from './wrap-command.js';

/** The arguments a real POSIX shell reads from a command (PATH empty: nothing runs). */
function shellWords(command: string): string[] {
  const script = `set -- ${command}\nprintf '%s\\0' "$@"`;
  const result = spawnSync('/bin/sh', ['-c', script], { env: { PATH: '' }, encoding: 'utf8' });
  return result.stdout.split('\0').slice(0, -1);
}

const wordsOf = (line: string): string[] => line.match(/(?:'[^']*'|"(?:[^"\\]|\\.)*"|\\.|[^\s'"\\])+/g) ?? [];

const COMMANDS = [
  '/opt/vllm/.venv/bin/python -m pip install flashinfer-cubin==0.6.4 --extra-index-url https://flashinfer.ai/whl',
  "uv pip install --python /srv/vllm/.venv/bin/python 'transformers>=4.56' 'tokenizers>=0.21' --upgrade --no-deps",
  'docker exec llm-vllm-1 /opt/vllm/.venv/bin/python -m pip install \'a b\' "c\\"d" e\\ f --extra-index-url https://x.y/z',
  `ssh gpu-1 '/opt/vllm/.venv/bin/python -m pip install flashinfer-cubin==0.6.4 --extra-index-url https://flashinfer.ai/whl'`,
  'kubectl rollout restart deployment/vllm-qwen3-with-a-long-name -n inference-production-namespace',
];

describe('wrapCommand: a command in 80 columns that a shell still reads as one', () => {
  it.each(COMMANDS)('%s', (command) => {
    const wrapped = wrapCommand(command, 12, 80);
    const lines = wrapped.split('\n');
    for (const [index, line] of lines.entries()) {
      const indent = index === 0 ? 12 : 0;
      // Over the width only where one quoted word is longer than a line.
      if (indent + line.length > 80) expect(wordsOf(line.replace(/ \\$/, '')), line).toHaveLength(1);
      if (index < lines.length - 1) expect(line).toMatch(/ \\$/);
    }
    expect(shellWords(wrapped)).toEqual(shellWords(command));
  });

  it('leaves a command that fits alone, and wraps a comment as comments', () => {
    expect(wrapCommand('kill 4242', 12, 80)).toBe('kill 4242');
    const comment = wrapCommand(`# ${'word '.repeat(30).trim()}`, 12, 80);
    for (const line of comment.split('\n')) expect(line.trim()).toMatch(/^# /);
  });
});
