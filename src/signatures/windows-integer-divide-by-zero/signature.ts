import { defineWindowsCrash } from '../windows-crash.js';

export default defineWindowsCrash({
  id: 'windows-integer-divide-by-zero',
  status: 0xc0000094,
  title: 'a native crash on Windows: integer division by zero (0xC0000094)',
  explanation:
    'Exit status 0xC0000094 is STATUS_INTEGER_DIVIDE_BY_ZERO: native code divided an integer by zero. In an inference runner that is a size it computed as zero from the model or the device (no GPU layers or devices, a block or split of 0, a GPU whose properties the backend read as 0): a bug of the runner for this model or GPU, which its issues usually name.',
});
