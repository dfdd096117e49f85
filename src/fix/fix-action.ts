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
      /** The index to install from instead of PyPI: PyTorch's for one CUDA version. */
      index?: string;
      /**
       * The engine that crashed is one of the packages (vllm, sglang, lmdeploy, tensorrt_llm), so the fix
       * upgrades the right one; an engine that is no Python package gets its new release in words.
       */
      engine?: true;
    }
  | {
      kind: 'engine-option';
      option: EngineOption;
      /** The value to set; omitted for a switch such as enforce-eager. One plain word: digits, or `float16`. */
      value?: string;
      /** The value is the largest power of two below `value` that divides this one (a head count). */
      divides?: string;
      /** The value is this share of memory, less a margin: the free over the total GiB the log reports. */
      share?: { part: string; whole: string };
    }
  /** The packages of the crashed environment: `pip check` (what each requires), or `pip list` filtered. */
  | { kind: 'inspect-packages'; list?: string }
  /**
   * A process that died with no cause in its log: where the record of its death is kept. Always what its
   * supervisor saw (systemd's result, a container's or pod's last state); `look` adds the records its kind
   * of death leaves: the kernel log of the OOM killer, a core dump, the CPU's instruction sets.
   */
  | { kind: 'inspect-exit'; look?: ExitRecord[] }
  | { kind: 'stop-process'; pid: string }
  | { kind: 'free-port'; port: string; pid?: string }
  /**
   * A variable in the server's environment: NCCL_P2P_DISABLE=1, HF_TOKEN=… (set where the place keeps it).
   * `engines`: only these engines read it (VLLM_*, SGLANG_*): skipped for another engine, named for an unknown one.
   */
  | { kind: 'environment-variable'; name: string; value: string; engines?: Engine[] }
  /**
   * A command that checks or changes something, run where it belongs: `server` in the server's own
   * environment (docker exec, kubectl exec for a container or pod), `host` on the machine (a pod's node).
   */
  | { kind: 'command'; argv: string[]; where: 'server' | 'host' }
  /** Debian packages the server's environment lacks (python3-dev, g++-12): on the host, or in the image. */
  | { kind: 'system-package'; packages: string[] }
  /** More shared memory (/dev/shm) for the server: the host's mount, a container's --shm-size, a pod's volume. */
  | { kind: 'shared-memory'; size: string }
  /**
   * A step in words that reads the same for every place and engine (accept a licence, upgrade the driver):
   * no install and no engine flag in it, which the table test checks. `{name}` captures allowed.
   */
  | { kind: 'step'; text: string };

export const INSTALL_OPTIONS = [
  '--upgrade',
  '--force-reinstall',
  '--no-deps',
  '--no-build-isolation',
  '--no-cache-dir',
] as const;
export type InstallOption = (typeof INSTALL_OPTIONS)[number];

export const EXIT_RECORDS = ['oom-killer', 'core-dump', 'cpu-flags'] as const;
export type ExitRecord = (typeof EXIT_RECORDS)[number];

export const ENGINE_OPTIONS = [
  'max-model-len',
  'gpu-memory-utilization',
  'tensor-parallel-size',
  'port',
  'enforce-eager',
  'max-num-seqs',
  'max-num-batched-tokens',
  'pipeline-parallel-size',
  'dtype',
  'trust-remote-code',
  'gpu-layers',
  'disable-custom-all-reduce',
  'host',
  'quantization',
  'max-lora-rank',
  'distributed-executor-backend',
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
  /** The systemd unit the log is of (journalctl -u, or its systemd lines), where the log says. */
  unit?: string | null;
}

/** A fix written out: the lines to show and copy (commands, or a step in words), a try-it-now and a check. */
export interface RenderedFix {
  lines: string[];
  /** A change that does not outlive the container (docker exec), to try before rebuilding. */
  tryNow?: string;
  /** A command, run in the same place, that shows the fix worked. */
  verify?: string;
}
