import { defineSignature } from '../define-signature.js';
import { HEAP_CHECKS, STACK_CHECKS } from '../../runtimes/cpp/heap-checks.js';

// glibc found its heap damaged and aborted: native code wrote where it should not have, earlier. Like the
// other deaths it weighs the least, so an error the process logged before it is named instead.
export default defineSignature({
  id: 'native-heap-corruption',
  title: "glibc found the process's heap corrupted and aborted it",
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['double free', 'corrupt', 'free():', 'munmap_chunk', 'smashing', 'overflow detected'],
  match: {
    exception: null,
    message: new RegExp(`${HEAP_CHECKS}|${STACK_CHECKS}`),
  },
  explanation:
    "glibc's allocator checks its bookkeeping when memory is allocated or freed; finding it damaged, it printed the check that failed and aborted the process (SIGABRT, exit 134). The damage was done earlier by native code writing past a buffer or freeing memory twice: a compiled extension built for another torch, CUDA or Python, two copies of one library loaded at once (a bundled and a system libstdc++ or libgomp), or a bug of this engine version. At the end of a run, while the interpreter exits, it is often two libraries tearing down the same object; while serving, it is a real bug that can return again.",
  fix: 'Get the backtrace from the core dump (`coredumpctl list`, then `coredumpctl info PID`) to see which library freed the memory; `pip check` and reinstalling the extension it names for the installed torch and CUDA is the usual fix.',
  action: [
    {
      kind: 'inspect-exit',
      look: ['core-dump'],
    },
    {
      kind: 'step',
      text: "Search the engine's issues for the library the backtrace names, and reinstall that library built for the installed torch and CUDA.",
    },
  ],
  references: ['https://sourceware.org/glibc/wiki/MallocInternals'],
  weight: 0.01,
});
