import { defineCheck, type Problem } from '../define-check.js';

/**
 * Without nvidia-smi the GPU checks cannot run. That is a note on a CPU box or in CI, and an error with
 * --gpu, which says a GPU must be there: the report then exits 1 like any other failed check.
 */
export default defineCheck({
  id: 'gpu-unavailable',
  severity: 'info',
  title: 'GPU not inspected',
  run: ({ gpu, gpuRequired }): Problem[] => {
    if (gpu === null) return [];
    const severity = gpuRequired ? 'error' : 'info';
    if (gpu.status === 'absent') {
      return [
        {
          severity,
          title: gpuRequired ? 'No GPU found' : 'GPU not inspected',
          detail: gpuRequired
            ? '--gpu was given, but nvidia-smi is not on PATH, so there is no NVIDIA driver to run the server on.'
            : 'nvidia-smi is not on PATH; driver, compute capability and GPU memory were not checked.',
          fix: gpuRequired
            ? 'install the NVIDIA driver (it provides nvidia-smi), or run where the GPU is'
            : null,
          packages: [],
        },
      ];
    }
    if (gpu.status === 'failed') {
      return [
        {
          severity: gpuRequired ? 'error' : 'warning',
          title: 'nvidia-smi failed',
          detail: `nvidia-smi is installed but failed: ${gpu.reason}. The server will not find a GPU either.`,
          fix: 'check that the NVIDIA kernel module is loaded (nvidia-smi, dmesg | grep -i nvrm) and the container has the GPU',
          packages: [],
        },
      ];
    }
    if (gpu.gpus.length === 0) {
      return [
        {
          severity: gpuRequired ? 'error' : 'warning',
          title: 'No GPU found',
          detail: 'nvidia-smi lists no GPU.',
          fix: 'check CUDA_VISIBLE_DEVICES and the container GPU options',
          packages: [],
        },
      ];
    }
    return [];
  },
});
