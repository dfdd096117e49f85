/**
 * Failures that are not Python exceptions: native aborts, CUDA and NCCL errors, Rust and Go errors,
 * signals, the kernel's OOM killer, and the error lines of the C++ engines. One row per grammar.
 */
export interface FailureLine {
  id: string;
  pattern: RegExp;
  /** A fatal line alone proves the start failed; a non-fatal one is a candidate only beside fatal evidence. */
  fatal: boolean;
  /** Prior strength as a root cause, before signatures and wrappers are weighed. */
  strength: number;
  /** The message to report, when it is not the whole line (`what():` text, Ollama's `error="..."`). */
  message?: (m: RegExpExecArray) => string;
  /** The Python exception whose text this line is, where the line is one (`[Errno 98]` is an OSError). */
  exception?: string | ((m: RegExpExecArray) => string);
  /** A crash whenever it happens: counts even after the server became ready. */
  crash?: boolean;
  /** Also counts when logged at INFO or DEBUG: platform detection reports its failures that way. */
  quiet?: boolean;
}

export const FAILURE_LINES: readonly FailureLine[] = [
  {
    id: 'cpp-what',
    pattern: /^\s*what\(\):\s+(.+)$/,
    fatal: true,
    strength: 45,
    message: (m) => m[1] ?? '',
    crash: true,
  },
  // `Error details from previous import attempts:` then `- ImportError: ...`: the causes behind a loader's summary.
  {
    id: 'listed-exception',
    pattern: /^\s*[-*] ([A-Z]\w*(?:Error|Exception)): (.+)/,
    fatal: false,
    strength: 44,
    exception: (m) => m[1] ?? '',
    message: (m) => m[2] ?? '',
  },
  {
    id: 'cuda-oom',
    pattern: /CUDA out of memory|OutOfMemoryError|CUDA_ERROR_OUT_OF_MEMORY/,
    fatal: true,
    strength: 42,
    crash: true,
  },
  // The dynamic loader refusing a binary: nothing of the server ran.
  {
    id: 'loader-error',
    pattern:
      /error while loading shared libraries: (.+)|symbol lookup error: (.+)|version `[^`']+' not found \(required by [^)]+\)/,
    fatal: true,
    strength: 44,
  },
  {
    id: 'bare-module-missing',
    pattern: /^No module named '([^']+)'/,
    fatal: false,
    strength: 40,
    exception: 'ModuleNotFoundError',
  },
  // The CUDA runtime's own error strings, printed bare by the C++ engines (`cudaGetErrorString`).
  {
    id: 'cuda-error-string',
    pattern:
      /^(?:no kernel image is available for execution on the device|an illegal memory access was encountered|device-side assert triggered|misaligned address|unspecified launch failure|the provided PTX was compiled with an unsupported toolchain|CUDA driver version is insufficient for CUDA runtime version|forward compatibility was attempted on non supported HW)\b/,
    fatal: true,
    strength: 40,
    crash: true,
  },
  // A GPU server that gives up its GPU has failed as one, though it goes on (Ollama on a too-old card).
  {
    id: 'gpu-fallback',
    pattern:
      /\b(?:GPU|CUDA)\b.{0,60}\b(?:too old|not supported|unsupported)\b.{0,60}\bfalling back to CPU\b/i,
    fatal: true,
    strength: 38,
  },
  {
    id: 'cpp-terminate',
    pattern: /terminate called after throwing an instance of '([^']+)'/,
    fatal: true,
    strength: 15,
  },
  {
    id: 'cpp-terminate-bare',
    pattern: /terminate called without an active exception/,
    fatal: true,
    strength: 20,
  },
  {
    id: 'cuda-error',
    pattern: /\bCUDA (?:error|Error|runtime error)\b(?:[: ].*)?$/,
    fatal: true,
    strength: 42,
    crash: true,
  },
  {
    id: 'cublas-error',
    pattern: /\bcu(?:BLAS|DNN|FFT|SPARSE) error\b/i,
    fatal: true,
    strength: 40,
    crash: true,
  },
  {
    id: 'cuda-failed',
    pattern: /\bFailed: Cuda error\b|cudaMalloc failed|\bcuda(?:Malloc|Memcpy)\w* failed/,
    fatal: true,
    strength: 42,
    crash: true,
  },
  {
    id: 'ggml-cuda-init',
    pattern: /ggml_cuda_init: failed to initialize CUDA: (.+)/,
    fatal: true,
    strength: 38,
  },
  {
    id: 'no-platform',
    pattern: /No platform detected, vLLM is running on UnspecifiedPlatform/,
    fatal: true,
    strength: 5,
    quiet: true,
  },
  // pydantic's config validation: vLLM's EngineArgs checks surface this way.
  {
    id: 'pydantic-value-error',
    pattern: /^\s*Value error, (.+)/,
    fatal: true,
    strength: 44,
    exception: 'ValueError',
    message: (m) => m[1] ?? '',
  },
  {
    id: 'pydantic-assertion',
    pattern: /^\s*Assertion failed, (.+)/,
    fatal: true,
    strength: 42,
    exception: 'AssertionError',
    message: (m) => m[1] ?? '',
  },
  { id: 'python-warning', pattern: /^\S+\.py:\d+: (\w+Warning): (.+)/, fatal: false, strength: 12 },
  { id: 'tm-error', pattern: /\[TM\]\[(?:ERROR|FATAL)\] (.+)/, fatal: true, strength: 42, crash: true },
  {
    id: 'trt-error',
    pattern: /^\[TensorRT-LLM\]\[ERROR\] (.+)|^\d+: \[[\w.:]+\] Error Code \d+/,
    fatal: true,
    strength: 38,
  },
  { id: 'nccl-warn', pattern: /\bNCCL WARN (.+)/, fatal: false, strength: 30 },
  {
    id: 'nccl-watchdog',
    pattern:
      /Watchdog caught collective operation timeout|ProcessGroupNCCL's watchdog got stuck|NCCL (?:error|communicator was aborted)/,
    fatal: true,
    strength: 40,
  },
  { id: 'rust-main-error', pattern: /^(?:Error)?: ?([A-Z]\w+)(?:\((.*)\))?\s*$/, fatal: true, strength: 30 },
  { id: 'rust-panic', pattern: /thread '[^']*' panicked at (.+)/, fatal: true, strength: 38, crash: true },
  { id: 'go-panic', pattern: /^panic: (.+)/, fatal: true, strength: 40, crash: true },
  { id: 'go-fatal', pattern: /^fatal error: (.+)/, fatal: true, strength: 38 },
  // Go and Rust CLIs (`Error: listen tcp ...`, `Error: 500 Internal Server Error: ...`) and click's options.
  {
    id: 'cli-error',
    pattern:
      /^Error: (?:[a-z0-9].+|No such option.*|Invalid value.*|Missing (?:argument|option).*|Got unexpected.*)$/,
    fatal: true,
    strength: 32,
  },
  { id: 'docker-daemon', pattern: /docker: Error response from daemon: (.+)/, fatal: true, strength: 40 },
  {
    id: 'segfault',
    pattern: /Segmentation fault|SIGSEGV|Fatal Python error: Segmentation/,
    fatal: true,
    strength: 35,
    crash: true,
  },
  {
    id: 'fatal-python',
    pattern: /^Fatal Python error: (?!Aborted)(.+)/,
    fatal: true,
    strength: 34,
    crash: true,
  },
  { id: 'bus-error', pattern: /\bBus error\b|SIGBUS/, fatal: true, strength: 35, crash: true },
  {
    id: 'illegal-instruction',
    pattern: /Illegal instruction|SIGILL/,
    fatal: true,
    strength: 35,
    crash: true,
  },
  {
    id: 'shard-signal',
    pattern: /Shard process was signaled to shutdown with signal (\d+)/,
    fatal: true,
    strength: 33,
  },
  {
    id: 'oom-killer',
    pattern: /Out of memory: Kill(?:ed)? process|invoked oom-killer|oom-kill:|OOMKilled/,
    fatal: true,
    strength: 44,
    crash: true,
  },
  { id: 'killed', pattern: /^Killed$|\bsignal: killed\b/, fatal: true, strength: 25 },
  { id: 'errno', pattern: /\[Errno \d+\] .+/, fatal: true, strength: 36, exception: 'OSError' },
  {
    id: 'bind-failed',
    pattern:
      /couldn't bind|bind: address already in use|bind: Only one usage of each socket address|address already in use/i,
    fatal: true,
    strength: 40,
  },
  {
    id: 'llama-load',
    pattern:
      /^\w+: (?:error loading model|failed to (?:load|open|read|initialize|allocate)|error: |unable to load|couldn't|cannot |could not |invalid )/,
    fatal: true,
    strength: 36,
  },
  {
    id: 'llama-abort',
    pattern: /GGML_ASSERT|ggml_abort|: CUDA error$/,
    fatal: true,
    strength: 36,
    crash: true,
  },
  // Ollama's slog lines, their `time= level= source=` header already read: `msg="..." error="..."`.
  // Logged at INFO, yet the start of the model failed; its error="..." says why, or repeats the loader.
  {
    id: 'ollama-server-failed',
    pattern: /^msg="NewLlamaServer failed".*?error="([^"]+)"/,
    fatal: true,
    strength: 30,
    message: (m) => m[1] ?? '',
    quiet: true,
  },
  {
    id: 'ollama-load-error',
    pattern:
      /^msg="(?:error loading|failed to load|unable to load|error starting|llama runner terminated)[^"]*"(?:.*?error="([^"]+)")?/,
    fatal: true,
    strength: 34,
  },
  {
    id: 'ollama-error',
    pattern: /^msg="([^"]+)"(?:.*?error="([^"]+)")?/,
    fatal: false,
    strength: 30,
    message: (m) => m[2] ?? m[1] ?? '',
  },
  {
    id: 'go-std-error',
    pattern: /\b(?:exited with error|runner exited|error loading|failed to)\b/,
    fatal: false,
    strength: 20,
  },
  {
    id: 'no-cuda-gpus',
    pattern:
      /no CUDA-capable device is detected|Found no NVIDIA driver|NVIDIA driver on your system is too old|NVML Shared Library Not Found|Failed to initialize NVML/,
    fatal: false,
    strength: 38,
    quiet: true,
  },
  {
    id: 'arg-error',
    pattern:
      /^error while handling argument|^error: (?:unrecognized|invalid|unknown|the argument|unexpected argument|a value is required|the following arguments are required|ambiguous option)|: error: (?:argument|unrecognized arguments|invalid choice|the following arguments are required|ambiguous option)/,
    fatal: true,
    strength: 40,
  },
];

/** Compiler and linker lines inside a build failure's output: the cause behind "Ninja build failed". */
export const BUILD_ERROR =
  /(?:^|\s)(?:fatal error|error): |\/ld: |\bld: cannot find|undefined reference to|collect2: error|nvcc fatal|No such file or directory|command not found/;
