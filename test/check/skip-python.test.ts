import { describe, expect, it } from 'vitest';
import { runVigil } from './helpers/run-cli.js';

// What `vigil unit` writes into ExecStartPre for a server that is not Python (ollama, llama-server):
// the OS python3 is not the server's, so its state must not stop a healthy start.
describe('vigil check --skip-python', () => {
  it('reads no Python environment, so a missing or broken python3 does not fail it', async () => {
    const run = await runVigil(['check', '--skip-python'], { env: { PATH: '/nonexistent' } });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/python3 was not found/);
  });

  it('is a usage error beside --python, --venv or --site-packages', async () => {
    const run = await runVigil(['check', '--skip-python', '--venv', '/opt/venv']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^vigil: --skip-python reads no environment/);
  });
});
