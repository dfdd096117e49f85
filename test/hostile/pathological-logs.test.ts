import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnosis/index.js';
import { diagnosisSchema } from './diagnosis-schema.js';

/** Shapes that break recursive or quadratic code: each must finish quickly with a valid Diagnosis. */
function chainedExceptions(depth: number): string {
  const parts: string[] = [];
  for (let i = 0; i < depth; i++) {
    parts.push(
      'Traceback (most recent call last):',
      `  File "/app/layer${i}.py", line ${i + 1}, in f${i}`,
      `    g${i}()`,
      `RuntimeError: failure number ${i}`,
      '',
      i % 2 === 0
        ? 'The above exception was the direct cause of the following exception:'
        : 'During handling of the above exception, another exception occurred:',
      '',
    );
  }
  parts.push(
    'Traceback (most recent call last):',
    '  File "/app/main.py", line 1, in <module>',
    'ValueError: outermost',
  );
  return parts.join('\n');
}

function deepTraceback(frames: number): string {
  const lines = ['Traceback (most recent call last):'];
  for (let i = 0; i < frames; i++)
    lines.push(`  File "/app/recursive.py", line 7, in recurse`, '    return recurse(n - 1)');
  lines.push('RecursionError: maximum recursion depth exceeded');
  return lines.join('\n');
}

function manyProcesses(count: number): string {
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    lines.push(
      `(Worker_TP${i} pid=${10_000 + i}) ERROR 02-20 23:33:10 [multiproc_executor.py:772] Traceback (most recent call last):`,
    );
    lines.push(
      `(Worker_TP${i} pid=${10_000 + i}) ERROR 02-20 23:33:10 [multiproc_executor.py:772]   File "/x/w.py", line 1, in main`,
    );
    lines.push(
      `(Worker_TP${i} pid=${10_000 + i}) ERROR 02-20 23:33:10 [multiproc_executor.py:772] RuntimeError: error ${i} at 0x${i.toString(16)}`,
    );
  }
  return lines.join('\n');
}

function manyDistinctErrors(count: number): string {
  return Array.from(
    { length: count },
    (_, i) =>
      `ERROR: RuntimeError: distinct failure kind ${'x'.repeat(i % 50)} ${String.fromCharCode(65 + (i % 26))}${i}`,
  ).join('\n');
}

/**
 * Shapes that once made the engine super-linear (a splitter rescanning for CR, a chain walked whole for
 * every exception). Speed itself is measured in the benchmark; here each must finish, stay valid and
 * keep the report small, within the test's generous timeout.
 */
const CASES: { name: string; build: () => string }[] = [
  { name: '1,000 chained exceptions', build: () => chainedExceptions(1_000) },
  { name: '2,000 processes failing differently', build: () => manyProcesses(2_000) },
  {
    name: 'a line of 200,000 ANSI colour codes',
    build: () => `${'\u001b[0;36m'.repeat(200_000)}RuntimeError: coloured`,
  },
  {
    name: 'deeply nested process tags',
    build: () => `${'(Worker pid=1) '.repeat(20_000)}RuntimeError: nested`,
  },
  { name: 'a traceback of 10,000 frames', build: () => deepTraceback(10_000) },
  {
    name: '15,000 "During handling" lines alone',
    build: () => 'During handling of the above exception, another exception occurred:\n'.repeat(15_000),
  },
  {
    name: 'a traceback that never ends (100,000 frames)',
    build: () =>
      `Traceback (most recent call last):\n${'  File "/a.py", line 1, in f\n    f()\n'.repeat(100_000)}`,
  },
  {
    name: '11,000 identical bare exception lines',
    build: () => 'RuntimeError: x\n'.repeat(11_000),
  },
  { name: '7,000 distinct error lines', build: () => manyDistinctErrors(7_000) },
];

function diagnoseCompletely(build: () => string): void {
  const diagnosis = diagnose(build());
  const parsed = diagnosisSchema.safeParse(diagnosis);
  if (!parsed.success) expect.fail(parsed.error.message);
  // The report stays small, whatever the input holds.
  expect(JSON.stringify(diagnosis).length).toBeLessThan(2 * 1024 * 1024);
}

describe('diagnose() on pathological structure', () => {
  for (const { name, build } of CASES) {
    it(name, () => diagnoseCompletely(build), 60_000);
  }
});
