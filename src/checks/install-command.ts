import type { Distribution } from '../environment/types.js';

/**
 * `pip install 'X==1'`, or `uv pip install …` when the distribution concerned was installed by uv.
 * Arguments are quoted only when a shell would read them otherwise (`<`, `>`, `[`, spaces).
 */
export function formatInstall(specs: string[], near?: Distribution, extraArgs: string[] = []): string {
  const tool = near?.installer === 'uv' ? 'uv pip install' : 'pip install';
  return [tool, ...specs.map(quoteForShell), ...extraArgs].join(' ');
}

export function formatUninstall(names: string[], near?: Distribution): string {
  const tool = near?.installer === 'uv' ? 'uv pip uninstall' : 'pip uninstall -y';
  return [tool, ...names.map(quoteForShell)].join(' ');
}

export function quoteForShell(argument: string): string {
  return /^[\w.=+\-/:@,]+$/.test(argument) ? argument : `'${argument.replace(/'/g, `'\\''`)}'`;
}
