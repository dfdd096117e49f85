import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runVigil, tempDir } from '../hostile/cli-harness.js';

const ROOT = resolve(import.meta.dirname, '../..');
const INCIDENT = readFileSync(join(ROOT, 'examples/vllm-kimi-k25-flashinfer-mismatch.journal.log'), 'utf8');
const JIT_CACHE = readFileSync(
  join(
    ROOT,
    'src/signatures/flashinfer-version-mismatch/fixtures/matches/sglang-jit-cache-behind-python.log',
  ),
  'utf8',
);

/** A venv on this machine whose distributions an installer wrote, with torch built for `cuda`. */
function makeVenv(root: string, installer: string, cuda: string): string {
  const venv = join(root, 'srv', 'vllm', '.venv');
  const site = join(venv, 'lib', 'python3.12', 'site-packages');
  for (const name of ['flashinfer_python-0.6.4.dist-info', 'torch-2.9.1.dist-info']) {
    mkdirSync(join(site, name), { recursive: true });
    writeFileSync(join(site, name, 'INSTALLER'), `${installer}\n`);
  }
  mkdirSync(join(site, 'torch'), { recursive: true });
  writeFileSync(
    join(site, 'torch', 'version.py'),
    `__version__ = '2.9.1+cu130'\ncuda: Optional[str] = '${cuda}'\n`,
  );
  writeFileSync(join(venv, 'pyvenv.cfg'), 'home = /usr/bin\n');
  return venv;
}

async function fixOf(log: string): Promise<{ fix: string; alternative?: string; verify?: string }> {
  const dir = await tempDir();
  writeFileSync(join(dir, 'server.log'), log);
  const result = await runVigil(['diagnose', join(dir, 'server.log'), '--format', 'json']);
  expect(result.code).toBe(1);
  return (JSON.parse(result.stdout) as { signature: { fix: string; alternative?: string; verify?: string } })
    .signature;
}

describe('the flashinfer fix targets the environment that crashed, and the installer that built it', () => {
  it('the traceback’s venv, not on this machine: its interpreter runs pip, then verify', async () => {
    const signature = await fixOf(INCIDENT);
    expect(signature.fix).toBe(
      '/opt/vllm/.venv/bin/python -m pip install flashinfer-cubin==0.6.4 --extra-index-url https://flashinfer.ai/whl',
    );
    expect(signature.verify).toBe('vigil check --venv /opt/vllm/.venv');
    // A cubin mismatch: no jit-cache advice, no CUDA tag written as a constant.
    expect(signature.alternative).not.toMatch(/jit-cache|cu1\d\d/);
    expect(signature.alternative).toContain(
      '/opt/vllm/.venv/bin/python -m pip install flashinfer-python==0.6.3',
    );
  });

  it('uv built the venv on this machine (its INSTALLER files): uv pip install --python', async () => {
    const venv = makeVenv(await tempDir(), 'uv', '13.0');
    const signature = await fixOf(INCIDENT.replaceAll('/opt/vllm/.venv', venv));
    expect(signature.fix).toBe(
      `uv pip install --python ${venv}/bin/python flashinfer-cubin==0.6.4 --extra-index-url https://flashinfer.ai/whl`,
    );
    expect(signature.verify).toBe(`vigil check --venv ${venv}`);
  });

  it('a jit-cache mismatch: the index of the CUDA the environment’s torch was built for', async () => {
    const venv = makeVenv(await tempDir(), 'pip', '13.0');
    const log = JIT_CACHE.replace(
      /\/[^"\s]*\/lib\/python3\.\d+\/(?:site|dist)-packages/g,
      `${venv}/lib/python3.12/site-packages`,
    );
    const signature = await fixOf(log);
    expect(signature.fix).toBe(
      `${venv}/bin/python -m pip install flashinfer-jit-cache==0.6.4 --extra-index-url https://flashinfer.ai/whl/cu130`,
    );
  });
});
