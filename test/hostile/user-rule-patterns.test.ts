import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileLinearPattern } from '../../src/signatures/linear-pattern.js';
import { runVigil, writeFiles } from './cli-harness.js';

// Issue 15, item 3: user patterns that hung V8's backtracking engine (113 s for the first on 41 characters).
const HOSTILE = [
  '^(a{1,30}){1,30}$',
  '((a{1,10}){1,10}){1,10}b',
  '[^](a+)+]',
  'a*b?a*b?a*b?a*b?a*c',
  '.*.*X',
  '(a+)+$',
  '(a|a)*x',
];

const LINE = 64 * 1024;
/** The lines that make each of them backtrack: runs of `a` that almost match. */
const INPUTS = ['a'.repeat(LINE), `${'a'.repeat(LINE - 1)}!`, 'ab'.repeat(LINE / 2), `${'a'.repeat(41)}!`];

describe('user patterns run in linear time', () => {
  it.each(HOSTILE)('%s ends in seconds on 64 KiB lines (backtracking would take ages)', (source) => {
    const pattern = compileLinearPattern(source, '');
    if (typeof pattern === 'string') throw new Error(pattern);
    for (const input of INPUTS) {
      const started = performance.now();
      pattern.exec(input);
      pattern.test(input);
      expect(performance.now() - started, `${source} on ${input.length} characters`).toBeLessThan(4000);
    }
  });

  it('keeps JavaScript semantics: named groups, flags, [^] as any character', () => {
    const named = compileLinearPattern('need (?<want>\\d+) bytes', 'i');
    if (typeof named === 'string') throw new Error(named);
    expect(named.exec('NEED 123 bytes')?.groups?.want).toBe('123');
    expect(named.source).toBe('need (?<want>\\d+) bytes');
    expect(String(named)).toBe('/need (?<want>\\d+) bytes/i');
    const any = compileLinearPattern('a[^]b', '');
    if (typeof any === 'string') throw new Error(any);
    expect(any.test('a\nb')).toBe(true);
  });

  it.each([
    ['(a*)\\1*b', 'without backreferences (\\1)'],
    ['(?<x>a)\\k<x>', 'without backreferences'],
    ['a(?=b)', 'lookahead'],
  ])('refuses %s with a reason', (source, reason) => {
    expect(compileLinearPattern(source, '')).toContain(reason);
  });

  it('diagnose with each hostile rule (message and frames) on a log of 64 KiB lines finishes', async () => {
    const rules = HOSTILE.map((source, index) =>
      [
        `- id: hostile-${index}`,
        '  title: a hostile rule',
        '  category: other',
        '  engines: [vllm]',
        '  keywords: [runtimeerror]',
        '  explanation: a rule that backtracks without bound in V8',
        '  fix: none',
        '  references: []',
        '  match:',
        `    message: ${JSON.stringify(source)}`,
        `    frames: ${JSON.stringify(source)}`,
        `    process: ${JSON.stringify(source)}`,
      ].join('\n'),
    ).join('\n');
    const a = 'a'.repeat(LINE);
    const log = [
      'INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.11.0',
      'Traceback (most recent call last):',
      `  File "/opt/${a}.py", line 10, in ${a}`,
      `    raise RuntimeError(${a})`,
      `RuntimeError: ${a}`,
      '',
    ].join('\n');
    const dir = await writeFiles({ 'rules.yaml': rules, 'server.log': log });
    const started = performance.now();
    const result = await runVigil(['diagnose', join(dir, 'server.log'), '--rules', join(dir, 'rules.yaml')]);
    const elapsed = performance.now() - started;
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain('RuntimeError');
    // The engine sees at most 4 KiB of any input; the whole run is far from the minutes V8 took.
    expect(elapsed).toBeLessThan(20_000);
  }, 60_000);
});

describe('a lookahead (RE2 has none), as built-in signatures use', () => {
  it('is accepted when the backtracking check finds no risk, and refused when it does', async () => {
    const { compileUserPattern } = await import('../../src/signatures/schema.js');
    const safe = compileUserPattern('No space left on device(?![^\\n]*/dev/shm)');
    expect(safe).toBeInstanceOf(RegExp);
    expect(typeof compileUserPattern('(?!x)(a+)+$')).toBe('string');
  });
});
