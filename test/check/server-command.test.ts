import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFakeNvidiaSmi } from './helpers/fake-nvidia-smi.js';
import { runVigil } from './helpers/run-cli.js';
import { makeTempDir, writeEnvironment } from './helpers/write-environment.js';

let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

const LLAMA = join(import.meta.dirname, '../fixtures/model-configs/meta-llama--Llama-3.1-8B-Instruct');

/** A model folder with Llama-3.1-8B's config and 16 GB safetensors index, a venv, and one 24 GiB GPU. */
function setup(gpus = 1): { model: string; sitePackages: string; env: Record<string, string> } {
  const model = join(dir.path, 'Llama-3.1-8B-Instruct');
  mkdirSync(model);
  for (const name of ['config.json', 'model.safetensors.index.json']) {
    writeFileSync(join(model, name), readFileSync(join(LLAMA, name)));
  }
  const { sitePackages } = writeEnvironment(join(dir.path, 'venv'), []);
  const rows = Array.from({ length: gpus }, () => 'NVIDIA GeForce RTX 4090, 8.9, 575.51.03, 300, 24576');
  return { model, sitePackages, env: { PATH: writeFakeNvidiaSmi(dir.path, { gpus: rows }), HOME: dir.path } };
}

/** `vigil check OPTIONS -- vllm serve MODEL SERVE_FLAGS`. */
function checkServe(model: string, options: string[], serveFlags: string[]): string[] {
  return ['check', ...options, '--', 'vllm', 'serve', model, ...serveFlags];
}

function findings(stdout: string): { id: string; severity: string; detail: string }[] {
  return (JSON.parse(stdout) as { findings: { id: string; severity: string; detail: string }[] }).findings;
}

describe('vigil check -- SERVER-COMMAND', () => {
  it('errs for --max-model-len 131072 on a 24 GiB GPU at 0.9, stating the largest length that fits', async () => {
    const { model, sitePackages, env } = setup();
    const result = await runVigil(
      checkServe(
        model,
        ['--format', 'json', '--site-packages', sitePackages],
        ['--gpu-memory-utilization', '0.9', '--max-model-len', '131072'],
      ),
      { env },
    );
    expect(result.code).toBe(1);
    const [finding] = findings(result.stdout).filter((f) => f.id === 'kv-cache-too-small');
    expect(finding?.severity).toBe('error');
    expect(finding?.detail).toMatch(
      /131072-token sequence.*16\.00 GiB.*the largest --max-model-len that fits is about \d+/,
    );
  });

  it('passes for --max-model-len 8192, stating the largest length that fits', async () => {
    const { model, sitePackages, env } = setup();
    const result = await runVigil(
      checkServe(
        model,
        ['--format', 'json', '--site-packages', sitePackages],
        ['--gpu-memory-utilization=0.9', '--max_model_len', '8192'],
      ),
      { env },
    );
    expect(result.code).toBe(0);
    const [finding] = findings(result.stdout).filter((f) => f.id === 'kv-cache-too-small');
    expect(finding?.severity).toBe('info');
    expect(finding?.detail).toMatch(/the largest --max-model-len that fits is about \d+/);
  });

  it("check's own --max-model-len wins over the command's", async () => {
    const { model, sitePackages, env } = setup();
    const result = await runVigil(
      checkServe(
        model,
        ['--format', 'json', '--site-packages', sitePackages, '--max-model-len', '8192'],
        ['--gpu-memory-utilization', '0.9', '--max-model-len', '131072'],
      ),
      { env },
    );
    expect(result.code).toBe(0);
  });

  it('reads the parallel layout from the command: -tp 4 -dp 2 on one GPU', async () => {
    const { model, sitePackages, env } = setup(1);
    const result = await runVigil(
      checkServe(model, ['--format', 'json', '--site-packages', sitePackages], ['-tp', '4', '-dp', '2']),
      { env },
    );
    expect(result.code).toBe(1);
    expect(findings(result.stdout).map((f) => f.id)).toContain('parallel-layout');
  });

  it('--termination-log writes the first error (id, message, fix) in at most 4 KB', async () => {
    const { model, sitePackages, env } = setup();
    const log = join(dir.path, 'termination-log');
    const result = await runVigil(
      checkServe(
        model,
        ['--site-packages', sitePackages, '--termination-log', log],
        ['--gpu-memory-utilization', '0.9', '--max-model-len', '131072'],
      ),
      { env },
    );
    expect(result.code).toBe(1);
    const text = readFileSync(log, 'utf8');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
    expect(text).toMatch(/^kv-cache-too-small: Model does not fit in GPU memory at this length: /);
    expect(text).toMatch(/\nfix: serve with --max-model-len \d+ or less/);
  });

  it('--termination-log writes nothing when there is no error', async () => {
    const { model, sitePackages, env } = setup();
    const log = join(dir.path, 'termination-log');
    const result = await runVigil(
      checkServe(
        model,
        ['--site-packages', sitePackages, '--termination-log', log],
        ['--max-model-len', '8192'],
      ),
      { env },
    );
    expect(result.code).toBe(0);
    expect(existsSync(log)).toBe(false);
  });

  it('--termination-log into a missing folder is one line and exit 2', async () => {
    const { model, sitePackages, env } = setup();
    const result = await runVigil(
      checkServe(
        model,
        ['--site-packages', sitePackages, '--termination-log', join(dir.path, 'no/such/dir/log')],
        ['--max-model-len', '131072'],
      ),
      { env },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot write .*its folder does not exist/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
