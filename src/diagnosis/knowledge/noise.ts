import { anyOf } from './any-of.js';

/**
 * Benign lines that look alarming: suppressed and counted, never blamed. A line here still counts as a
 * cause when a signature names it (a warning that is the only trace of a cause).
 */
export const NOISE_PATTERNS: readonly RegExp[] = [
  // A deprecation notice, in a warning class or a tag (vLLM's `[DEPRECATED] Block manager v1 has been removed`).
  /FutureWarning|DeprecationWarning|PendingDeprecationWarning|^\[DEPRECATED\] /,
  /destroy_process_group\(\) was not called|process group has NOT been destroyed/,
  /SymmMemCommunicator: Device capability [\d.]+ not supported/,
  /Custom allreduce is disabled|Setup Custom allreduce failed|specify --disable-custom-all-reduce/i,
  /CUDA kernel errors might be asynchronously reported|For debugging consider passing CUDA_LAUNCH_BLOCKING|Compile with `?TORCH_USE_CUDA_DSA`?/,
  /If out-of-memory error occurs during cudagraph capture/,
  /There appear to be \d+ leaked (?:semaphore|shared_memory)/,
  /Tip: In future versions of Ray/,
  /The following error message 'operation scheduled before its operands' can be ignored/,
  /Token file not found/,
  /We're not using custom kernels/,
  /unable to refresh ld cache/,
  // Not Flash Attention's: a sharded model that needs it names it, and then its failed import is the cause.
  /Could not import Mamba|Failed to import Ray with/i,
  /no pipeline tag found for model|Invalid hostname, defaulting to/,
  /Cuda Graphs are disabled/,
  // Go's console setup on Windows when Ollama's output is a pipe, not a console.
  /failed to get console mode for std(?:out|err): The handle is invalid/,
  /Model does not support automatic max batch total tokens/,
  /Methods [\w,]+ not implemented in </,
  /is not backward compatible\. Falling back/,
  /Reducing Torch parallelism/,
  /Failed to find a feasible kernel in the cache/,
  /gemm_config\.in is not found/,
  /control-looking token|special_eos_id is not in special_eog_ids|missing or unrecognized pre-tokenizer type/,
  /n_ctx_per_seq \(\d+\) < n_ctx_train/,
  /Warning: please use at least NVCC/,
  /lm_eval is not installed|IS_TBO_ENABLED is not initialized|Fail to set RLIMIT_NOFILE/,
  /does not have a fast version\. Falling back|does not accept \{'device'\}/,
  /Error with model object=|"(?:GET|POST|PUT|DELETE) [^"]*" (?:4\d\d)\b|\b(?:GET|POST) \S+ [\d.]+ 404\b/,
  /Failed to read commit hash/,
  // Python's `logger.exception()` called with no exception being handled: the traceback it prints is this.
  /^NoneType: None$/,
  // torch's rendezvous tried an address of `localhost` it cannot bind (IPv6) and goes on with the next.
  /\[c10d\] The client socket has failed to connect to \[[^\]]*\]:\d+ \(errno: 99 - Cannot assign requested address\)/,
  // Its server socket tries IPv6 first, then IPv4 (`... failed to bind to 0.0.0.0:29500`), which says it if it fails too.
  /\[c10d\] The server socket has failed to bind to \[::\]:\d+/,
  /gpu VRAM usage didn't recover within timeout|could not connect to a running Ollama instance/i,
  /Casting torch\.bfloat16 to torch\.float16|Ignore import error when loading sglang\.srt\.models\.torch_native_llama/,
  /is deprecated|will be removed in/i,
  /Ray will no longer override accelerator/,
  /stop processing: .*truncated = 0/,
  // SGLang's watchdog dumping a hung process's stacks before it ends it: the timeout after it is the news.
  /Pyspy failed to dump PID/,
  // vLLM's dump of a failed step's inputs, logged at ERROR after the failure it follows.
  /^Dumping (?:input data\b|scheduler output for model execution\b|scheduler stats\b)/,
  // SGLang's request log (`--log-requests`): a request's payload, its prompt and output quoted whole (the
  // reader may have taken `Finish:` for a logger's name).
  /(?:^|\b(?:Receive|Finish): )obj=\w*ReqInput\(/,
];

export const isNoise: (text: string) => boolean = anyOf(NOISE_PATTERNS);
