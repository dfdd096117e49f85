import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Resolves a program on PATH, or null. Looked up before spawning because Node keeps a spawn's timeout
 * timer alive after ENOENT, so a missing program would hold the process open for the whole timeout.
 */
export function findExecutable(
  program: string,
  env: Record<string, string | undefined>,
  cwd = '.',
): string | null {
  if (program.includes('/')) return isExecutable(resolve(cwd, program)) ? resolve(cwd, program) : null;
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder === '' || !isAbsolute(folder)) continue;
    const candidate = join(folder, program);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
