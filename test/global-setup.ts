import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs once before the test files: every test process gets its own HOME, XDG state, config and cache
 * folders and TMPDIR inside one temporary folder, so no test writes the user's
 * ~/.local/state/vigil/history.json or reads ~/.config/vigil/signatures, and whatever a test leaves in
 * its temp folders goes when the run ends. The test processes inherit this environment.
 */
export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'vigil-test-run-'));
  for (const name of ['HOME', 'XDG_STATE_HOME', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'TMPDIR']) {
    const folder = join(root, name.toLowerCase());
    mkdirSync(folder);
    process.env[name] = folder;
  }
  return () => rmSync(root, { recursive: true, force: true });
}
