import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../diagnosis/index.js';
import { parseLine } from './parse-line.js';

const DIR = join(import.meta.dirname, 'fixtures');
const names = readdirSync(DIR).filter((name) => name.endsWith('.log'));

interface Expected {
  format: string;
  exception: string | null;
  message_contains: string;
}

describe.each(names)('fixtures/%s', (name) => {
  const log = readFileSync(join(DIR, name), 'utf8');
  const expected = JSON.parse(readFileSync(join(DIR, name.replace(/\.log$/, '.json')), 'utf8')) as Expected;

  it('every line is read with its grammar', () => {
    const lines = log.split('\n').filter((line) => line !== '');
    expect(lines.filter((line, i) => !parseLine(line, i + 1).formats.includes(expected.format))).toEqual(
      name.startsWith('vllm-process-tag') ? [lines.at(-1)] : [],
    );
  });

  it('gives the root cause', () => {
    const rc = diagnose(log).rootCause;
    expect(rc?.exception ?? null).toEqual(
      expected.exception === null ? null : expect.stringMatching(new RegExp(`${expected.exception}$`)),
    );
    expect(`${rc?.message ?? ''} ${rc?.line ?? ''}`).toContain(expected.message_contains);
  });
});
