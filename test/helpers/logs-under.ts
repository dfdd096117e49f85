import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every `.log` file under `dir`, in name order, folders included; none where `dir` is absent. */
export function logsUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...logsUnder(path));
    else if (name.endsWith('.log')) found.push(path);
  }
  return found;
}

/**
 * The repository's real logs: the signatures' fixtures, the test sets, the examples, and ../shared beside the
 * checkout where present (more real lines, not needed for a test to mean something).
 */
export function repositoryLogs(root: string): string[] {
  return ['src/signatures', 'test/fixtures', 'examples', '../shared'].flatMap((dir) =>
    logsUnder(join(root, dir)),
  );
}
