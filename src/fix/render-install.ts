import type { FixEnvironment, FixPlace, InstallOption } from './fix-action.js';
import { joinArgs } from './quote-shell.js';

/** Where packages that are not (or not only) on PyPI are published, by name; the CUDA tag from the environment. */
const PACKAGE_INDEXES: Record<string, (cudaTag: string | null) => string | null> = {
  'flashinfer-cubin': () => 'https://flashinfer.ai/whl',
  'flashinfer-jit-cache': (cudaTag) => `https://flashinfer.ai/whl/${cudaTag ?? 'cu129'}`,
  torch: (cudaTag) => (cudaTag === null ? null : `https://download.pytorch.org/whl/${cudaTag}`),
  torchvision: (cudaTag) => (cudaTag === null ? null : `https://download.pytorch.org/whl/${cudaTag}`),
  torchaudio: (cudaTag) => (cudaTag === null ? null : `https://download.pytorch.org/whl/${cudaTag}`),
};

/** The venv a fix creates where the system Python is externally managed. */
export const NEW_VENV = '/opt/venv';

/** `flashinfer-cubin==0.6.4` -> flashinfer-cubin; the name as pip normalizes it. */
function requirementName(requirement: string): string {
  const match = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(requirement);
  return (match?.[1] ?? '').toLowerCase().replace(/[._]+/g, '-');
}

/** pip's arguments: options, requirements, and the indexes the packages need. */
export function installArgs(
  requirements: readonly string[],
  options: readonly InstallOption[],
  cudaTag: string | null,
): string[] {
  const indexes = new Set<string>();
  for (const requirement of requirements) {
    const index = PACKAGE_INDEXES[requirementName(requirement)]?.(cudaTag) ?? null;
    if (index !== null) indexes.add(index);
  }
  return [...options, ...requirements, ...[...indexes].flatMap((index) => ['--extra-index-url', index])];
}

/**
 * The install commands for the environment that crashed, each quoted for POSIX sh: uv's when uv built it,
 * `conda run -p` for a conda environment, a new venv for an externally managed system Python (never
 * --break-system-packages), else that interpreter's own pip. Unknown environment: plain `pip install`.
 */
export function renderLocalInstall(args: readonly string[], environment: FixEnvironment | null): string[] {
  if (environment === null) return [joinArgs(['pip', 'install', ...args])];
  if (environment.conda) {
    return [joinArgs(['conda', 'run', '-p', environment.prefix, 'python', '-m', 'pip', 'install', ...args])];
  }
  if (!environment.isVenv && environment.externallyManaged) {
    return [
      '# PEP 668: this Python is managed by the system; install into a venv and start the server from it',
      joinArgs([environment.python, '-m', 'venv', NEW_VENV]),
      joinArgs([`${NEW_VENV}/bin/python`, '-m', 'pip', 'install', ...args]),
    ];
  }
  if (environment.installer === 'uv') {
    return [joinArgs(['uv', 'pip', 'install', '--python', environment.python, ...args])];
  }
  return [joinArgs([environment.python, '-m', 'pip', 'install', ...args])];
}

/**
 * The Dockerfile line that makes the change in the image: into the venv the traceback ran in when there
 * is one (uv's --python, else its interpreter's pip), else the image's Python (uv's --system).
 */
export function renderImageInstall(args: readonly string[], environment: FixEnvironment | null): string {
  const uv = environment?.installer === 'uv';
  const python = environment?.isVenv === true ? environment.python : null;
  const install =
    python === null
      ? uv
        ? ['uv', 'pip', 'install', '--system', ...args]
        : ['python3', '-m', 'pip', 'install', ...args]
      : uv
        ? ['uv', 'pip', 'install', '--python', python, ...args]
        : [python, '-m', 'pip', 'install', ...args];
  return `RUN ${joinArgs(install)}`;
}

/** The install inside the running container or pod: gone at its next start, so only a try-it-now. */
export function renderExecInstall(
  args: readonly string[],
  place: Extract<FixPlace, { kind: 'container' | 'pod' }>,
  environment: FixEnvironment | null,
): string {
  const python = environment?.python ?? 'python3';
  const install = [python, '-m', 'pip', 'install', ...args];
  if (place.kind === 'container') return joinArgs([place.runtime, 'exec', place.name, ...install]);
  return joinArgs(['kubectl', 'exec', place.name, ...namespaceArgs(place), '--', ...install]);
}

export function namespaceArgs(place: { namespace?: string }): string[] {
  return place.namespace === undefined ? [] : ['-n', place.namespace];
}
