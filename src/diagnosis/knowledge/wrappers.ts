import { anyOf } from './any-of.js';

/**
 * A channel closed under the process that read it: the process at the other end died or was shut down
 * first. Second-hand, so it says less than any line of that death (vLLM's `Engine process failed to start`
 * after its client's `ZMQError: Operation not supported`).
 */
const CLOSED_CHANNEL_PATTERNS: readonly RegExp[] = [
  // gloo's socket to a peer that went away.
  /gloo\/transport\/tcp\/pair\.cc:\d+\] (?:Read error \S+: )?Connection (?:closed|reset) by peer/,
  // A message socket (ZeroMQ).
  /\bZMQError: (?:Operation not supported|Context was terminated|Socket operation on non-socket)/,
  // NCCL's socket to a peer that went away (its `Last error:` under `ncclRemoteError`).
  /^socketProgress: Connection closed by remote peer\b/,
];

/**
 * Errors that only point at a cause printed elsewhere. They prove the start failed but never win as the
 * root cause while anything more specific exists (../shared/docs/log-formats.md, "Phrases ... elsewhere").
 */
export const WRAPPER_PATTERNS: readonly RegExp[] = [
  // vLLM
  /Engine core initialization failed/i,
  /EngineCore failed to start/i,
  /EngineCore hit an exception/i,
  /EngineCore encountered (?:a fatal error|an issue)/i,
  /WorkerProc (?:failed to start|hit an exception|initialization failed)/i,
  /Worker proc \S+ died unexpectedly/i,
  /Worker failed with error/i,
  /please check the stack trace above for the root cause/i,
  /See (?:the )?(?:stack trace|root cause) (?:\(?above\)?|for root cause)/i,
  /Got fatal signal from worker processes/i,
  /EngineDeadError|AsyncEngineDeadError|Engine loop is dead|Background loop has errored/i,
  // A request's handler told that the V0 engine stopped answering: the engine's own end comes before it.
  // Not the client's own line (`TimeoutError('No heartbeat received from MQLLMEngine')`, its repr): with
  // nothing else in the log, that line is all it says of the death.
  /\bTimeoutError: No heartbeat received from MQLLMEngine/,
  /Error executing met(?!hod \w+: \w)/i,
  /Exception in worker \S+ while processing method/i,
  // Carries the cause after its colon when it has one: only the bare form points elsewhere.
  /Error in model execution(?: \([^)]*\))?:?\s*$/i,
  // vLLM's dump of a failed step's inputs: what stopped the dump (the CUDA context the failure left
  // broken) comes after the failure it reports; `Error in model execution: ...` below names that failure.
  /^Failed to pickle inputs of failed execution:/,
  // vLLM's peer-to-peer probe runs in a child process: the child's own output, printed after this, says why.
  /Error happened when batch testing peer-to-peer access/,
  /failed to be inspected\. Please check the logs/i,
  /Error in inspecting model architecture/i,
  // vLLM runs the model registry's inspection in a subprocess and prints that subprocess's traceback after.
  /Error raised in subprocess:?\s*$/,
  /CalledProcessError: Command '\[[^\]]*vllm\.model_executor\.models\.registry/,
  /RuntimeError: Ninja build failed/i,
  /^Ninja build failed/i,
  /Error building extension/i,
  // A build tool's exit: the compiler's or linker's lines in the output after it say why.
  /CalledProcessError: Command '\[?'(?:[^']*\/)?(?:ninja|make|cmake|nvcc|gcc|g\+\+|c\+\+|cc|clang\+*)'[,\]].*returned non-zero exit status/,
  // torch.compile's backend failed: the backend's own exception is on the line after `raised:`, also where
  // an engine re-raises it in its own words (SGLang's `Capture cuda graph failed: backend='inductor' raised:`).
  /\bbackend=.* raised:\s*$/,
  // Triton's compiler: the kernel's source and a caret follow, then the exception it met (its repr).
  /\bCompilationError: at \d+:\d+:\s*$/,
  // MLIR's pass pipeline (Triton's lowering): the pass's own error (`LLVM ERROR: ...`) comes before it.
  /PassManager::run failed/,
  // TorchScript's interpreter: the error it ran into closes its message (collect-candidates.ts).
  /The following operation failed in the TorchScript interpreter/,
  /Failed to initialize the engine|Initialization failed\. See|Engine process failed to start/i,
  // SGLang
  // Older releases spell it `proces.`.
  /Received sigquit from a child proces/i,
  // Its later releases: the parent's SIGQUIT handler, told by a child that died.
  /SIGQUIT received\b.*\bIt usually means one child failed/,
  /Rank \d+ scheduler is dead/i,
  /Dumping requests before crash/i,
  /Scheduler hit an exception/i,
  /Capture cuda graph failed: ?$/i,
  /Could not load any common_ops library/i,
  /Initialization failed\. warmup error/i,
  // TGI
  /\bShardCannotStart\b/,
  /Shard \d+ failed to start/i,
  /Shard complete standard error output/i,
  /^Error when initializing model$/i,
  /Method \w+ encountered an error/i,
  /\bDownloadError\b/,
  /WebserverFailed/,
  // The router's client finds no shard listening on its socket: the shard died, and its last error says why.
  /\bServer error: error trying to connect: Connection refused\b/,
  // TensorRT-LLM
  /Executor worker returned error/i,
  // llama.cpp / Ollama
  /llama runner process (?:has terminated|no longer running)/i,
  /try reducing --n-gpu-layers/i,
  // ggml's abort after a GPU call failed: the `CUDA error: REASON` lines printed with it say what.
  /^\S*:\d+: (?:CUDA|ROCm|HIP|SYCL|MUSA|CANN|Vulkan) error\s*$/,
  /main: error: unable to load model/i,
  // Ollama's runner panics when the load it asked llama.cpp for failed; llama.cpp said why before it.
  /^panic: unable to (?:load model|create llama context)\b/,
  /llama_init_from_gpt_params: error: failed to load model/i,
  /Server process terminated unexpectedly/i,
  /cleaning up before exit/i,
  /something went wrong, please see the ollama server logs/i,
  /No platform detected, vLLM is running on UnspecifiedPlatform/,
  // NCCL's exceptions name only the class of what went wrong; its `NCCL WARN` lines before them say what.
  /NCCL error(?: in: \S+,)?:? remote process exited or there was a network error(?:, NCCL version [\w.+-]+)?\s*(?:$|\n)/,
  // torch's relay of NCCL's internal check: NCCL's `Last error:` under the class after it says which.
  /\bNCCL error in: \S+, internal error - please report this issue to the NCCL developers\b/,
  /\bnccl(?:Internal|System|UnhandledCuda|RemoteError)Error\b[^:]*$/,
  // ...or with only NCCL's own description of the class (its `Last error:` repeats a WARN line above).
  /\bncclSystemError: System call \(e\.g\. socket, malloc\) or external library call failed or device error\.?\s*(?:Last error:\s*)?$/,
  // ...or with the CUDA error it got, which its `NCCL WARN Cuda failure N '...'` line said where it happened.
  /\bncclUnhandledCudaError: Call to CUDA function failed\./,
  /\bNCCL error in: \S+, unhandled (?:system|cuda) error \(run with NCCL_DEBUG=INFO for details\)/,
  // A pointer at another log: a test harness's `Server process exited with code -9. Check server logs for
  // errors.`, SGLang's `Please check if there are relevant logs.`
  /\bCheck (?:the )?(?:server )?logs? for (?:errors|details)\b|\bPlease check if there are relevant logs\b/i,
  // unittest's header over a test's traceback (`ERROR: setUpClass (__main__.TestX)`): the traceback says why.
  /^(?:(?:ERROR|FAIL): )?(?:setUp\w*|tearDown\w*|test\w*) \([\w.]+\)\s*$/,
  // Ray: an actor's worker died; the worker's own lines above say why (the raylet's report of the death,
  // a failure line of runtimes/ray, is what is left when they do not).
  /(?:ActorDiedError|RayActorError): The actor died unexpectedly before finishing this task/,
  // An actor whose constructor raised: the actor's own traceback, printed with its pid, says what.
  /(?:ActorDiedError|RayActorError): The actor died because of an error raised in its creation task/,
  // Ray's report of a task's error no caller retrieved: the task's traceback and exception follow it.
  /\bUnhandled error \(suppress with '?RAY_IGNORE_UNHANDLED_ERRORS=1'?\)/,
  // A task's exception as Ray hands it to its caller: `RayTaskError: ray::Actor.method() (pid=1, ip=...)`,
  // the task's own traceback and exception after it.
  // Its colour codes are read as text where a paste lost their escape character (`[36mray::...() [39m`);
  // a Ray Data operator names its function in the task's name (`ray::MapBatches(LLM)()`).
  /\bRayTaskError(?:\(\w+\))?: (?:\[\d+m)?ray::[\w.:-]+(?:\([\w.]+\))?\(\)(?: ?\[\d+m)? \(pid=\d+/,
  // Ray Data's wrapper of an exception raised in the user's function, which is chained above it.
  /^(?:ray\.exceptions\.)?UserCodeException$/,
  // llama-cpp-python's exception when the C library failed: the library's own lines above say why.
  /^(?:ValueError: )?Failed to (?:create llama_context|load model from file: )/,
  // vLLM's report that its engine loop's task ended, over that task's traceback (`exc_info`).
  /^Engine background task failed$/,
  // Triton's end when a model failed to load: its table of model states, above, says which and why.
  /^error: creating server: Internal - failed to load all models/,
  // An exception group (Python 3.11, anyio's task groups): its sub-exceptions, drawn below it, say what failed.
  /\b(?:Base)?ExceptionGroup: .*\(\d+ sub-exceptions?\)/,
  // A web framework's answer to a client that the server failed (`HTTPException: 500: Briton error during
  // inference`): the part that failed logs its own error, before or after the answer.
  /\bHTTPException: 5\d\d: /,
  // Slurm's report that a job step's task ended (`srun: error: node-1: task 0: Exited with exit code 1`): the
  // task's own lines before it say why.
  /^srun: error: \S+: tasks? [\d,-]+: (?:Exited with exit code \d+|Killed|Terminated)/,
  // torch's elastic agent (torchrun): its summary table names the worker's own failure (a traceback it
  // printed, or the signal that ended it) below it.
  /\bChildFailedError:\s*$/,
  // generic process plumbing
  // A harness's or launcher's word that a part did not start, and no why (`RuntimeError: Failed to start
  // router` after the router's own panic): the part's own lines say why.
  /(?:^|Error: )Failed to start (?:the )?[\w-]+(?: [\w-]+)?\.?\s*$/,
  /^Process (?:EngineCore|SpawnProcess|ForkProcess)[\w-]*:$/,
  /^Task exception was never retrieved/,
  /^Fatal Python error: Aborted/,
  /^Aborted \(core dumped\)\s*$/,
  ...CLOSED_CHANNEL_PATTERNS,
];

export const isWrapper: (text: string) => boolean = anyOf(WRAPPER_PATTERNS);
export const reportsClosedChannel: (text: string) => boolean = anyOf(CLOSED_CHANNEL_PATTERNS);

/** What an inner error's words look like: not a bare status (`exit status 2`, `signal: killed`). */
const INNER_FAILURE =
  /error|fail|cannot|could not|unable|not found|missing|invalid|unsupported|not supported|out of memory|denied|refused/i;
const BARE_STATUS = /^(?:exit status|exit code|signal:?|status)\b/i;

/** The words the first wrapper a text holds relays after its colon; null with no wrapper or no colon. */
function relayedBy(text: string): string | null {
  for (const pattern of WRAPPER_PATTERNS) {
    const m = pattern.exec(text);
    if (m === null) continue;
    const after = text.slice(m.index + m[0].length);
    const colon = after.indexOf(': ');
    return colon === -1 ? null : after.slice(colon + 2);
  }
  return null;
}

/**
 * Whether a wrapper's message ends in a bare status (`llama runner process has terminated: signal:
 * killed`, `... exit status 2`): it points at nothing else, it says how the process died.
 */
export function relaysBareStatus(text: string): boolean {
  const relayed = relayedBy(text);
  return relayed !== null && BARE_STATUS.test(relayed.replace(/^["'\s]+/, ''));
}

/**
 * The error a wrapper's own message relays, when it carries one after its words (`error loading llama
 * server" error="llama runner process has terminated: error loading model: missing tensor ...`): the
 * lower-level error is the cause, the wrapper its symptom. Null when the wrapper only points elsewhere.
 */
export function innerCauseOf(text: string): string | null {
  const inner = relayedBy(text)
    ?.replace(/["'\s]+$/, '')
    .trim();
  return inner !== undefined && inner.length >= 12 && INNER_FAILURE.test(inner) && !BARE_STATUS.test(inner)
    ? inner
    : null;
}

/** A library's error code alone, as an exception's whole message (NIXL's `NIXL_ERR_BACKEND`). */
const CODE_ONLY = /^[A-Z][A-Z0-9]*_ERR(?:OR)?_[A-Z0-9_]+$/;

/**
 * Whether an exception carries only its library's error code (`nixlBackendError: NIXL_ERR_BACKEND`): it
 * classes what failed, and the library's own error line before it (UCX's `VRAM memory is detected as host by
 * UCX`) says what. Alone, it is still the cause.
 */
export function saysOnlyACode(exception: string | null, message: string): boolean {
  return exception !== null && CODE_ONLY.test(message.trim());
}
