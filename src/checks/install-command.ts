import type { Distribution } from '../environment/types.js';

/**
 * `pip install 'X==1'`: the fix layer (src/fix) aims it at the environment checked, uv's or its
 * interpreter's pip, when the command prints it. A distribution uv installed says `uv pip install` here,
 * which the layer also aims (with `--python`: uv outside an active venv installs nowhere useful).
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
