import { defineCheck } from '../define-check.js';
import { formatBytes } from '../format-bytes.js';

const MiB = 1024 ** 2;

/**
 * /dev/shm, which NCCL needs for tensor parallelism and vLLM's workers use for their queues. Docker gives
 * 64 MB unless told otherwise; NCCL then fails with "No space left on device (28)".
 */
export default defineCheck({
  id: 'shm-too-small',
  severity: 'error',
  title: '/dev/shm too small',
  run: ({ sharedMemory, tensorParallelSize }) => {
    if (sharedMemory === null) return [];
    const parallel = (tensorParallelSize ?? 1) > 1;
    const limit = parallel ? 1024 * MiB : 256 * MiB;
    if (sharedMemory.totalBytes >= limit) return [];
    return [
      {
        severity: parallel ? 'error' : 'warning',
        detail:
          `/dev/shm holds ${formatBytes(sharedMemory.totalBytes)}` +
          (parallel
            ? `; with --tp ${tensorParallelSize ?? ''} NCCL fails with "Error while creating shared memory segment … No space left on device (28)".`
            : '; worker queues and any tensor parallelism will run out of it.'),
        fix: 'run the container with --ipc=host or --shm-size=16g (Kubernetes: an emptyDir with medium: Memory at /dev/shm)',
        packages: [],
      },
    ];
  },
});
