import { diagnose } from './src/diagnosis/index.js';
const n = Number(process.argv[3]);
const cases: Record<string, () => string> = {
  deep: () => { const l = ['Traceback (most recent call last):']; for (let i = 0; i < n; i++) l.push('  File "/app/recursive.py", line 7, in recurse', '    return recurse(n - 1)'); l.push('RecursionError: x'); return l.join('\n'); },
  neverends: () => `Traceback (most recent call last):\n${'  File "/a.py", line 1, in f\n    f()\n'.repeat(n)}`,
  distinct: () => Array.from({ length: n }, (_, i) => `ERROR: RuntimeError: distinct failure kind ${'x'.repeat(i % 50)} ${String.fromCharCode(65 + (i % 26))}${i}`).join('\n'),
  during: () => 'During handling of the above exception, another exception occurred:\n'.repeat(n),
  bare: () => 'RuntimeError: x\n'.repeat(n),
};
const t = cases[process.argv[2]!]!();
const s = performance.now(); diagnose(t); console.log(process.argv[2], n, Math.round(performance.now() - s), 'ms');
