import { describe, expect, it } from 'vitest';
import type { Diagnosis, SignatureMatch } from '../types/diagnosis.js';
import { aimSignature } from './aim-fix.js';
import type { FixPlace } from './fix-action.js';
import { describeEnvironment, findCrashedEnvironment, type EnvironmentFacts } from './target-fix.js';

const LOCAL: FixPlace = { kind: 'local' };
const targetFix = (
  match: SignatureMatch,
  environment: NonNullable<typeof VENV>,
  facts: EnvironmentFacts,
  place: FixPlace = LOCAL,
) => aimSignature(match, { place, environment: describeEnvironment(environment, facts), engine: 'vllm' });

const signature = (fix: string, alternative?: string): SignatureMatch => ({
  id: 'x',
  title: 't',
  category: 'dependency-mismatch',
  explanation: 'e',
  fix,
  ...(alternative === undefined ? {} : { alternative }),
});

const crashedAt = (file: string): Diagnosis =>
  ({
    rootCause: {
      exception: 'RuntimeError',
      message: 'm',
      line: 'l',
      lineNumber: 1,
      processes: [],
      raiseSite: { file, line: 79, function: '_get_cubin_dir' },
      crashSite: null,
    },
  }) as unknown as Diagnosis;

const VENV = findCrashedEnvironment(
  crashedAt('/opt/vllm/.venv/lib/python3.12/site-packages/flashinfer/jit/env.py'),
);
const unknown: EnvironmentFacts = { installer: null, cudaTag: null };

describe('findCrashedEnvironment', () => {
  it.each([
    [
      '/opt/vllm/.venv/lib/python3.12/site-packages/flashinfer/jit/env.py',
      '/opt/vllm/.venv',
      '/opt/vllm/.venv/bin/python',
      true,
    ],
    ['/usr/local/lib/python3.12/dist-packages/vllm/engine.py', '/usr/local', '/usr/bin/python3.12', false],
    [
      '/home/u/miniconda3/envs/sg/lib/python3.11/site-packages/sglang/x.py',
      '/home/u/miniconda3/envs/sg',
      '/home/u/miniconda3/envs/sg/bin/python',
      true,
    ],
  ])('%s', (file, prefix, python, isVenv) => {
    expect(findCrashedEnvironment(crashedAt(file))).toMatchObject({ prefix, python, isVenv });
  });

  it('is null when no frame is in a site-packages folder', () => {
    expect(findCrashedEnvironment(crashedAt('<frozen importlib._bootstrap>'))).toBeNull();
  });
});

describe('targetFix: the install aimed at the environment that crashed', () => {
  it.each<[string, string, EnvironmentFacts, string]>([
    [
      'pip built it (or it is not on this machine)',
      'pip install "flashinfer-cubin==0.6.4"',
      unknown,
      '/opt/vllm/.venv/bin/python -m pip install flashinfer-cubin==0.6.4 --extra-index-url https://flashinfer.ai/whl',
    ],
    [
      'uv built it (INSTALLER)',
      'pip install "flashinfer-cubin==0.6.4"',
      { installer: 'uv', cudaTag: null },
      'uv pip install --python /opt/vllm/.venv/bin/python flashinfer-cubin==0.6.4 --extra-index-url https://flashinfer.ai/whl',
    ],
    [
      'jit-cache: the CUDA tag from the environment',
      'pip install "flashinfer-jit-cache==0.6.4"',
      { installer: 'pip', cudaTag: 'cu130' },
      '/opt/vllm/.venv/bin/python -m pip install flashinfer-jit-cache==0.6.4 --extra-index-url https://flashinfer.ai/whl/cu130',
    ],
    [
      'prose after the command stays prose',
      'pip install -U "transformers>=4.56" and restart the server.',
      unknown,
      "/opt/vllm/.venv/bin/python -m pip install -U 'transformers>=4.56' and restart the server.",
    ],
  ])('%s', (_name, fix, facts, aimed) => {
    expect(VENV).not.toBeNull();
    const target = targetFix(signature(fix), VENV!, facts);
    expect(target.fix).toBe(aimed);
    expect(target.verify).toBe('vigil check --venv /opt/vllm/.venv');
  });

  it('aims the alternative too, and leaves a fix without an install alone', () => {
    const aimed = targetFix(signature('pip install "a==1"', 'or pip install "a==0.9".'), VENV!, unknown);
    expect(aimed.alternative).toBe('or /opt/vllm/.venv/bin/python -m pip install a==0.9.');
    const plain = signature('set --max-model-len 8192');
    expect(targetFix(plain, VENV!, unknown)).toEqual(plain);
  });

  it('runs the install and the verify line over ssh on the host the log came from', () => {
    const aimed = targetFix(
      signature('pip install "a>=1"'),
      VENV!,
      { installer: 'uv', cudaTag: null },
      {
        kind: 'ssh',
        host: 'gpu-1',
      },
    );
    expect(aimed.fix).toBe(`ssh gpu-1 'uv pip install --python /opt/vllm/.venv/bin/python '\\''a>=1'\\'''`);
    expect(aimed.verify).toBe('vigil check --venv /opt/vllm/.venv --ssh gpu-1');
  });
});
