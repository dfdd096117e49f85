import type { Engine } from '../types/diagnosis.js';

/**
 * A fix as data: what to change, never how to type it. The fix layer (render-fix.ts) writes the command for
 * the environment, the place and the engine. In a signature the string fields may hold `{name}` captures;
 * they are filled as plain values and quoted only when rendered.
 */
export type FixAction =
  | {
      kind: 'install';
      /** Requirement specifiers: `flashinfer-cubin==0.6.4`, `tokenizers>=0.21`. */
      requirements: string[];
      /** pip's own options: `--upgrade`, `--force-reinstall`, `--no-deps`. */
      options?: InstallOption[];
    }
  | {
      kind: 'engine-option';
      option: EngineOption;
      /** The value to set; omitted for a switch such as enforce-eager. Digits where the option takes a number. */
      value?: string;
    }
  | { kind: 'stop-process'; pid: string }
  | { kind: 'free-port'; port: string; pid?: string };

export const INSTALL_OPTIONS = ['--upgrade', '--force-reinstall', '--no-deps'] as const;
export type InstallOption = (typeof INSTALL_OPTIONS)[number];

export const ENGINE_OPTIONS = [
  'max-model-len',
  'gpu-memory-utilization',
  'tensor-parallel-size',
  'port',
  'enforce-eager',
  'max-num-seqs',
] as const;
export type EngineOption = (typeof ENGINE_OPTIONS)[number];

/** Where the server runs, as the command that read its log says. */
export type FixPlace =
  | { kind: 'local' }
  | { kind: 'ssh'; host: string }
  | {
      kind: 'container';
      runtime: 'docker' | 'podman';
      name: string;
      /** The compose service that owns the container, when its labels say so. */
      compose?: { project: string; service: string };
      host?: string;
    }
  | {
      kind: 'pod';
      name: string;
      namespace?: string;
      /** The workload that owns the pod (from ownerReferences): what a restart rolls. */
      owner?: { kind: string; name: string };
      host?: string;
    };

/** The Python environment that crashed, with what its files say (null or false where unknown). */
export interface FixEnvironment {
  /** /opt/vllm/.venv (a venv or conda env), or /usr, /usr/local for the system's. */
  prefix: string;
  /** The interpreter that runs the server: /opt/vllm/.venv/bin/python. */
  python: string;
  isVenv: boolean;
  /** INSTALLER of its distributions: uv, pip, conda; null when unknown. */
  installer: string | null;
  /** torch's CUDA as a wheel tag (cu129); null when unknown or a CPU build. */
  cudaTag: string | null;
  /** A conda environment (a conda-meta folder): installed into with `conda run -p`. */
  conda: boolean;
  /** A system Python that PEP 668 marks externally managed: pip refuses, a venv is the way. */
  externallyManaged: boolean;
}

/** Everything the layer aims a fix with; each part null or local when unknown. */
export interface FixTarget {
  place: FixPlace;
  environment: FixEnvironment | null;
  engine: Engine | null;
}

/** A fix written out: the lines to show and copy (commands, or a step in words), a try-it-now and a check. */
export interface RenderedFix {
  lines: string[];
  /** A change that does not outlive the container (docker exec), to try before rebuilding. */
  tryNow?: string;
  /** A command, run in the same place, that shows the fix worked. */
  verify?: string;
}
