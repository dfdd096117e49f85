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
