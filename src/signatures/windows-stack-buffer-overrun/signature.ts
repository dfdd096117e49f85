import { defineWindowsCrash } from '../windows-crash.js';

export default defineWindowsCrash({
  id: 'windows-stack-buffer-overrun',
  status: 0xc0000409,
  title: 'a native crash on Windows: fail-fast abort (0xC0000409, stack buffer overrun)',
  explanation:
    "Exit status 0xC0000409 is STATUS_STACK_BUFFER_OVERRUN, and despite its name Windows ends every fail-fast with it: abort() in the C runtime, a failed assertion (GGML_ASSERT), a C++ exception nothing caught, as well as a corrupted stack. It is the Windows form of an abort: the reason is what the runner printed just before it (an assertion or error line); where this log does not hold it, it went to the runner's own output.",
});
