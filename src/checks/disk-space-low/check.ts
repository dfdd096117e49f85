import { defineCheck } from '../define-check.js';
import { formatBytes } from '../format-bytes.js';

const GiB = 1024 ** 3;
// Below 1 GiB even compile caches and logs fail; below 10 GiB a model download or torch.compile cache may.
const ERROR_BELOW = 1 * GiB;
const WARN_BELOW = 10 * GiB;

export default defineCheck({
  id: 'disk-space-low',
  severity: 'error',
  title: 'Little free disk space',
  run: ({ disk }) => {
    if (disk === null || disk.freeBytes >= WARN_BELOW) return [];
    return [
      {
        severity: disk.freeBytes < ERROR_BELOW ? 'error' : 'warning',
        detail: `${formatBytes(disk.freeBytes)} free on the file system of ${disk.path}, where model downloads and compile caches go; writes fail with "OSError: [Errno 28] No space left on device".`,
        fix: `free space under ${disk.path}, or point HF_HOME at a larger disk`,
        packages: [],
      },
    ];
  },
});
