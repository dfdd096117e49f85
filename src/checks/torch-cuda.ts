import { cudaVariantOf } from '../environment/pep440.js';
import type { CheckContext } from './define-check.js';

/** The CUDA torch was built for: torch/version.py when present, else the +cuXXX label; null if unknown or CPU. */
export function findTorchCuda(context: CheckContext): string | null {
  const fromFile = context.environment.modules.torchCuda;
  if (fromFile !== undefined) return fromFile;
  const torch = context.installed.get('torch');
  return torch === undefined ? null : (cudaVariantOf(torch.version)?.cuda ?? null);
}
