import { cudaMajor } from '../../environment/pep440.js';
import { defineCheck, type Problem } from '../define-check.js';
import { findTorchCuda } from '../torch-cuda.js';
import { compareDotted, findDriverCuda } from './driver-cuda.js';

/**
 * The driver's CUDA against the CUDA torch was built for. Another major cannot run at all ("The NVIDIA
 * driver on your system is too old"); a newer minor of the same major mostly runs under minor-version
 * compatibility, but PTX compiled for it does not load.
 */
export default defineCheck({
  id: 'driver-too-old',
  severity: 'error',
  title: 'GPU driver too old for torch',
  run: (context) => {
    const { gpu } = context;
    const torchCuda = findTorchCuda(context);
    const driver = gpu?.status === 'ok' ? gpu.gpus[0]?.driverVersion : undefined;
    if (torchCuda === null || driver === undefined || driver === '') return [];
    const ceiling = findDriverCuda(driver);
    if (compareDotted(torchCuda, ceiling.cuda) <= 0 || ceiling.orNewer) return [];
    const [major = 0, minor = 0] = ceiling.cuda.split('.').map(Number);
    const sameMajor = cudaMajor(torchCuda) === major;
    const problem: Problem = {
      severity: sameMajor ? 'warning' : 'error',
      detail:
        `torch is built for CUDA ${torchCuda}; driver ${driver} supports CUDA ${ceiling.cuda} at most. ` +
        (sameMajor
          ? 'Minor-version compatibility usually lets it run, but kernels shipped as PTX for the newer CUDA fail to load.'
          : `CUDA initialisation fails: "The NVIDIA driver on your system is too old (found version ${major * 1000 + minor * 10})".`),
      fix: `upgrade the NVIDIA driver to one supporting CUDA ${torchCuda}, or install torch built for CUDA ${ceiling.cuda} (e.g. --index-url https://download.pytorch.org/whl/cu${ceiling.cuda.replace('.', '')})`,
      packages: ['torch'],
    };
    return [problem];
  },
});
