import type { Level } from './parsed-line.js';

/**
 * The line-prefix grammars seen in real logs (../shared/docs/log-formats.md), outermost layer first.
 * A grammar matches at the start of what is left of the line; what it captures fills the line's fields.
 * Adding a format is adding a row here with a test row in parse-line.test.ts.
 */
export interface PrefixGrammar {
  id: string;
  stage: 'transport' | 'process' | 'header';
  /** Anchored at the start; the whole match is removed. */
  pattern: RegExp;
  /** Cheap test on the first character code before the regex runs. */
  first?: (code: number) => boolean;
  level?: (m: RegExpExecArray) => Level | null;
  process?: (m: RegExpExecArray) => string | null;
  ident?: (m: RegExpExecArray) => string | null;
}

// The three-letter words too: llama.cpp's JSON log (`"level":"ERR"`), zerolog's `ERR`/`WRN`/`INF`.
const LEVELS: Record<string, Level> = {
  DBG: 'DEBUG',
  INF: 'INFO',
  WRN: 'WARNING',
  ERR: 'ERROR',
  FTL: 'CRITICAL',
  D: 'DEBUG',
  DEBUG: 'DEBUG',
  TRACE: 'DEBUG',
  V: 'DEBUG',
  I: 'INFO',
  INFO: 'INFO',
  W: 'WARNING',
  WARN: 'WARNING',
  WARNING: 'WARNING',
  E: 'ERROR',
  ERROR: 'ERROR',
  F: 'CRITICAL',
  C: 'CRITICAL',
  CRITICAL: 'CRITICAL',
  FATAL: 'CRITICAL',
  PANIC: 'CRITICAL',
};

const LEVEL_OF = new Map(Object.entries(LEVELS));

export function toLevel(word: string | undefined): Level | null {
  if (word === undefined) return null;
  // Most words are written in capitals already: no new string for them.
  return LEVEL_OF.get(word) ?? LEVEL_OF.get(word.toUpperCase()) ?? null;
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
/**
 * journalctl writes the month in the machine's locale: `Dec`, `janv.`, `Mär`, `дек`, `6月`, `12월`. Any
 * word of letters (with a dot) or a number with the CJK month sign, before the day and the time.
 */
const LOCAL_MONTH = String.raw`(?:${MONTH}|\p{L}{2,9}\.?|\d{1,2} ?[月월])`;
const ISO = String.raw`\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?`;
const ISO_T = String.raw`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?`;
const LEVEL_WORD = '(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|TRACE|FATAL)';
/** A level word in capitals or, as zap and others write it, in lower case. */
const LEVEL_ANY =
  '(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|TRACE|FATAL|debug|info|warning|warn|error|critical|fatal)';

/** A process tag's label: the name, with the rank where one is given (`VllmWorker rank=0`). */
function tagLabel(m: RegExpExecArray): string {
  const name = `${m[1] ?? ''}${m[2] ?? ''}`;
  const rank = /\brank=(\d+)/.exec(m[3] ?? '');
  return rank ? `${name} rank=${rank[1]}` : name;
}

export const PREFIX_GRAMMARS: readonly PrefixGrammar[] = [
  // --- transports: how the line reached us ---
  {
    id: 'journald',
    stage: 'transport',
    // Not `TIME rocBLAS error: ...` behind docker's timestamp: an error's words, not a host and an ident.
    // Without a host, only an ident with its pid.
    pattern: new RegExp(
      String.raw`^(?:${LOCAL_MONTH} {1,2}[ \d]?\d(?:日)? \d\d:\d\d:\d\d(?:\.\d+)?|${ISO}) (?!(?:TRACE|DEBUG|INFO|WARN|ERROR)\s)(?![\w.-]+ (?:[Ee]rror|ERROR|[Ww]arning|WARNING|[Ff]atal|FATAL)(?:\[\d+\])?: )(?:[\w.-]+ ([^\s\[\]:]+)(?:\[\d+\])?|([^\s\[\]:]+)\[\d+\]): `,
      'u',
    ),
    first: (c) => c > 32,
    // A copy without the host (`Mar 18 11:23:46 sgl-router[931930]: ...`) keeps the ident's pid.
    ident: (m) => m[1] ?? m[2] ?? null,
  },
  {
    id: 'gke',
    stage: 'transport',
    pattern: new RegExp(String.raw`^${LEVEL_WORD} ${ISO} \[resource\.labels\.containerName: [^\]]*\] `),
    first: isUpper,
  },
  {
    id: 'fastchat',
    stage: 'transport',
    pattern: new RegExp(String.raw`^${ISO} \| ${LEVEL_WORD} \| [\w.-]+ \| `),
    first: isDigit,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'kubectl-prefix',
    stage: 'transport',
    // `kubectl logs --prefix`: `[pod/NAME/CONTAINER] `; each pod is its own process.
    pattern: /^\[pod\/([\w.-]+)\/([\w.-]+)\] /,
    first: (c) => c === 91,
    process: (m) => `${m[1] ?? ''}/${m[2] ?? ''}`,
  },
  {
    id: 'ci-timestamp',
    stage: 'transport',
    // Copied from the job's web page, its gutter comes with a no-break space (U+00A0); an empty line of
    // output leaves the time alone.
    pattern: new RegExp(String.raw`^(?:\s*\| )?\[${ISO}\](?: |$)(?:\s*\| )?`),
    first: (c) => c === 91 || c === 32 || c === 124 || c === 0xa0,
  },
  {
    id: 'console-table',
    stage: 'transport',
    // A cloud console's log table copied as text (AWS CloudWatch, a Ray dashboard): empty cells, the time
    // cell, the line: `  |   | 2024-03-04 10:54:22 | msg`, `\u00a0 | 2025-03-07T05:56:13.899Z | msg`.
    pattern: new RegExp(
      String.raw`^[ \u00a0]*\|(?:[ \u00a0]*\|)*[ \u00a0]*(?:${ISO}|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)[ \u00a0]*\| ?`,
    ),
    first: (c) => c === 32 || c === 124 || c === 160,
  },
  {
    id: 'iso-timestamp',
    stage: 'transport',
    // docker --timestamps, kubectl --timestamps, Runpod; TGI's own timestamp is taken here too, also after
    // docker's (`docker logs -t` of TGI: two times in a row).
    pattern: new RegExp(String.raw`^(?:(?:${ISO_T}\s+)+|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d > )`),
    first: isDigit,
  },
  {
    id: 'epoch-iso-tab',
    stage: 'transport',
    // A log store's export (Grafana's Loki): epoch milliseconds, the ISO time, the line, tab-separated.
    pattern: new RegExp(String.raw`^\d{10,19}\t${ISO_T}\t`),
    first: isDigit,
  },
  {
    id: 'plain-timestamp',
    stage: 'transport',
    // A viewer's copy of container output (Portainer, a log shipper): `2025-03-05 09:00:31 SIGABRT: abort`.
    // Not an application logger's own header, which goes on with a level, a `,123` or a `|`.
    pattern: new RegExp(
      String.raw`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? (?!\s*(?:\[?${LEVEL_WORD}\b|[-|:]\s))`,
      'i',
    ),
    first: isDigit,
  },
  {
    id: 'docker-compose',
    stage: 'transport',
    pattern: /^[A-Za-z0-9][\w.-]*\s+\| /,
  },
  {
    id: 'container-name',
    stage: 'transport',
    // A container's name before each line (stern, a log shipper's tag), seen where vLLM's process tag or
    // torch's rank follows it: `kserve-container (EngineCore_0 pid=58) RuntimeError: ...`.
    pattern: /^[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)* (?=\([A-Za-z][\w-]* pid=\d+\) |\[rank\d+\]:)/,
  },
  {
    id: 'localai-backend',
    stage: 'transport',
    // LocalAI relays its backend's output at its own DBG level: `8:59PM DBG GRPC(model-127.0.0.1:45725):
    // stderr ...`. The level is LocalAI's, not the line's.
    pattern: /^\d{1,2}:\d\d[AP]M (?:DBG|INF|WRN|ERR|FTL) GRPC\([^)]*\): (?:stderr|stdout) ?/,
    first: isDigit,
  },
  {
    id: 'djl-python-worker',
    stage: 'transport',
    // DJL Serving (SageMaker's LMI containers) relays its Python worker's output through its Java logger:
    // `[WARN ] PyProcess - W-1511-model-stderr: ...`, `INFO  PyProcess W-299-model1-stdout: ...`. The
    // level is the stream's (stderr is WARN), not the line's; the worker is the process.
    pattern:
      /^(?:\[(?:INFO|WARN|ERROR|DEBUG) ?\] |(?:INFO|WARN|ERROR|DEBUG)\s+)PyProcess (?:- )?(W-\d+)-[\w.-]*?-?(?:stdout|stderr): ?/,
    first: (c) => c === 91 || isUpper(c),
    process: (m) => m[1] ?? null,
  },
  {
    id: 'exception-group',
    stage: 'transport',
    // Python 3.11's exception groups draw each traceback in a margin (`  + Exception Group Traceback ...`,
    // `  | ...`, `  +-+---------------- 1 ----------------`, `    | ...`, `    +-----`): the lines inside are
    // a traceback's lines, the rules between sub-exceptions nothing.
    pattern: /^ {2,}(?:[|+] |\+-[-+]*(?: \d+ -+| \.\.\. -+)?\s*$)/,
    first: (c) => c === 32,
  },
  {
    id: 'stream-tag',
    stage: 'transport',
    // A wrapper's note of which stream a line came on: `[2024-12-05 04:16:07] [stderr] time=...`, or a
    // desktop app's `[1] stderr: gguf_init_from_file: ...`.
    pattern: /^(?:\[(?:stdout|stderr)\]|(?:stdout|stderr):) /,
    first: (c) => c === 91 || c === 115,
  },
  {
    id: 'bracketed-number',
    stage: 'transport',
    // A number in brackets before each line: a process runner's child index (`[1] stderr: ...` of
    // concurrently), a runner's pid (`[57663] .../llama-model.cpp:410: GGML_ASSERT(...) failed`), old
    // llama.cpp's epoch seconds (`[1723908816] n_ctx: 32768`). None says which process of the server wrote it.
    // A shell's job report spaces its number apart (`[1]    3804384 segmentation fault`): the shell's own line.
    pattern: /^\[\d{1,10}\] (?=\S)/,
    first: (c) => c === 91,
  },
  {
    id: 'launcher-relay',
    stage: 'transport',
    // A launcher's logger relaying its child's output at the launcher's own level (Lemonade Server:
    // `2026-06-09 14:01:52.982 [Error] (Process) (EngineCore pid=42521) ERROR ...`). The level in title case
    // and the source in parentheses are the launcher's, not the line's.
    pattern:
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[(?:Trace|Debug|Info|Warning|Error|Critical|Fatal)\] \([A-Za-z][\w.-]*\) /,
    first: isDigit,
  },
  {
    id: 'markdown',
    stage: 'transport',
    // Lines pasted into an issue in bold or as a quote; `> File` of loguru still reads as a frame after it.
    pattern: /^(?:\*\*|> (?=\S))/,
    first: (c) => c === 42 || c === 62,
  },
  {
    id: 'k9s',
    stage: 'transport',
    pattern: /^│ ?/,
    first: (c) => c === 0x2502,
  },
  // --- process tags: which process wrote it ---
  {
    id: 'vllm-process-tag',
    stage: 'process',
    // `(Worker_TP4 pid=2215)`, `(VllmWorker rank=0 pid=1)`, `(VllmWorker TP1 pid=443)`, Ray Data's `(_MapWorker pid=13019)`,
    // Ray Serve's replicas `(ServeReplica:app:VLLMDeployment pid=4321)`.
    pattern: /^\(([A-Za-z_][\w:-]*)((?: [A-Z]{2,4}\d+)*)((?:,? \w+=[^\s,)]+)+)\) ?/,
    first: (c) => c === 40,
    process: tagLabel,
  },
  {
    id: 'ray-component-tag',
    stage: 'process',
    pattern: /^\((raylet|gcs_server|autoscaler|monitor)(?:, ip=[^)]*)?\) /,
    first: (c) => c === 40,
    process: (m) => m[1] ?? null,
  },
  {
    id: 'ray-task-tag',
    stage: 'process',
    // Ray's prefix for a task or actor that has no name (`(pid=310893)`, or `(pid=)` before its worker is known).
    pattern: /^\(pid=(\d*)(?:, ip=[^)]*)?\) ?/,
    first: (c) => c === 40,
    process: (m) => (m[1] ? `pid=${m[1]}` : null),
  },
  {
    id: 'mpirun-tag-output',
    stage: 'process',
    // Open MPI's `mpirun --tag-output` (`[1,1]<stderr>:`, job and rank), with `--timestamp-output` before it.
    pattern: /^(?:\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4})?\[\d+,(\d+)\]<(?:stdout|stderr|stddiag)>: ?/,
    first: (c) => c === 91 || isUpper(c),
    process: (m) => `rank${m[1] ?? ''}`,
  },
  {
    id: 'torch-rank',
    stage: 'process',
    pattern: /^\[rank(\d+)\]:(?:\[([WEIF])\d{3,4} [\d:.]+(?: \d+)? [\w.]+:\d+\] )? ?/,
    first: (c) => c === 91,
    process: (m) => `rank${m[1] ?? ''}`,
    level: (m) => toLevel(m[2]),
  },
  // --- logger headers: level, time and source of the message ---
  {
    id: 'vllm-logger',
    stage: 'header',
    pattern: new RegExp(
      String.raw`^${LEVEL_WORD} \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? (?:\[[^\]]*\]|[\w./-]+:\d+\]) ?`,
    ),
    first: isUpper,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'sglang-logger',
    stage: 'header',
    // Its format has no level; its request log (`--log-requests`: `Receive: obj=...`, `Finish: obj=...`, a
    // prompt and its output in full) is INFO, whatever words the prompt holds.
    pattern: /^\[(?:\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d((?: [A-Z]{2,4}\d+)*)\] ?(?=((?:Receive|Finish): obj=)?)/,
    first: (c) => c === 91,
    process: (m) => (m[1] ? m[1].trim() : null),
    level: (m) => (m[2] ? 'INFO' : null),
  },
  {
    id: 'sglang-request-log',
    stage: 'header',
    // The same request log after a transport took its time (`[2026-02-09 13:43:02] Finish: obj=...`).
    pattern: /^(?:Receive|Finish): (?=obj=)/,
    first: (c) => c === 82 || c === 70,
    level: () => 'INFO',
  },
  {
    id: 'vllm-logger-fragment',
    stage: 'header',
    // A vLLM line whose level and time were cut when it was pasted: `[multiproc_executor.py:492] msg`.
    pattern: /^\[[\w./-]+\.py:\d+\] /,
    first: (c) => c === 91,
  },
  {
    id: 'bracketed-logger',
    stage: 'header',
    // An application's logging format of bracketed fields, the level among them:
    // `[2025-03-05 14:28:45,820] [ERROR] [MainThread] [vllm.worker.worker_base] >>> msg` (the time is
    // a transport's when it comes first; a lone `[ERROR] ` is a message's own word and stays).
    pattern: new RegExp(
      String.raw`^(?:\[\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?\] )?\[${LEVEL_WORD}\](?: \[[^\]]*\])+(?: >>>| -|:)? ?`,
    ),
    first: (c) => c === 91,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'app-logger',
    stage: 'header',
    // `2024-01-02 03:04:05 ERROR 12345 [async_llm_engine.py:64] msg`
    pattern: new RegExp(String.raw`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ${LEVEL_WORD} \d+ \[[^\]]*\] `),
    first: isDigit,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'kserve-logger',
    stage: 'header',
    // KServe's model server, after its time (read as a plain timestamp): `1 kserve ERROR
    // [__main__.py:<module>():254] msg`, the process id and the logger's name before the level.
    pattern: new RegExp(String.raw`^\d+ [\w.-]+ ${LEVEL_WORD} \[[^\]]*\] `),
    first: isDigit,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'python-logging',
    stage: 'header',
    // LMDeploy, flashinfer.jit, gpustack: `2024-01-01 00:00:00,000 - lmdeploy - INFO - msg`; a paste's first
    // line may have lost the start of its year (`024-09-29 ...`), the rest of the header says what it is.
    pattern: new RegExp(
      String.raw`^(?:\d{1,4}-\d\d-\d\d |\d\d/\d\d )\d\d:\d\d:\d\d(?:[,.]\d+)? - [\w.-]+ - ${LEVEL_WORD}\s*- (?:[\w.-]+(?::\d+)? - )?`,
    ),
    first: isDigit,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'trtllm-python',
    stage: 'header',
    pattern:
      /^(?:\[(?:ERROR|WARNING|INFO|DEBUG)\s*\| TRT-LLM\s*\]: )?(?:\[\d\d\/\d\d\/\d{4}-[\d:]+\] )?\[TRT(?:-LLM)?\] (?:\[RANK \d+\] )?\[([EWIVD])\] /,
    first: (c) => c === 91,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'trtllm-cpp',
    stage: 'header',
    pattern: /^\[TensorRT-LLM\](?:\[(ERROR|WARNING|INFO|DEBUG|TRACE)\])? ?/,
    first: (c) => c === 91,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'tgi-tracing',
    stage: 'header',
    // Spans nest: `ERROR warmup{max_input_length=1024}:warmup{...}: text_generation_client: ...`. The target
    // is a Rust module path, lower case: a shard's `RuntimeError: ...` after it is the message.
    pattern:
      /^(TRACE|DEBUG|INFO|WARN|ERROR)\s+(?:[\w-]+(?:\{[^}]*\})?(?::[\w-]+(?:\{[^}]*\})?)*: )?[a-z_][\w:]*: (?:[\w/.-]+\.rs:\d+: )?/,
    first: isUpper,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'dotted-target-tracing',
    stage: 'header',
    // The same shape with a Python module's dotted name as the target (NVIDIA Dynamo's workers:
    // `2025-05-16T04:56:18.119Z ERROR engine.run_mp_engine: NIXL_ERR_BACKEND`): no engine's own format.
    pattern: /^(TRACE|DEBUG|INFO|WARN|ERROR)\s+[a-z_]\w*(?:\.\w+)+: /,
    first: isUpper,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'ollama-slog',
    stage: 'header',
    pattern: /^time=\S+ level=(\w+) source=\S+ /,
    first: (c) => c === 116,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'go-log',
    stage: 'header',
    pattern: /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d [\w.-]+\.go:\d+: /,
    first: isDigit,
  },
  // llama.cpp's common log with timestamps (`--log-timestamps`, on in llama-server): minutes, seconds,
  // milliseconds and microseconds since start, then the level's letter.
  {
    id: 'llama-common',
    stage: 'header',
    pattern: /^\d+\.\d\d\.\d{3}\.\d{3} ([DIWE]) /,
    first: isDigit,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'glog',
    stage: 'header',
    // PyTorch's logging writes the same header with the module's path (`torch/_inductor/.../x.py:874]`).
    // PyTorch's C++ log brackets it and leaves out the thread: `[W329 06:28:12.581551416 TCPStore.cpp:330] `.
    // torch.compile's lines go on with their compile id (`[1/0] `); they print a kernel's source at ERROR.
    pattern:
      /^(?:([IWEF])\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [\w./-]+:\d+\] |\[([IWEF])\d{3,4} \d\d:\d\d:\d\d\.\d+(?: \d+)? [\w./-]+:\d+\] )(?:\[\d+\/\d+(?:_\d+)?\] )?/,
    first: (c) => isUpper(c) || c === 91,
    level: (m) => toLevel(m[1] ?? m[2]),
  },
  {
    id: 'ray-core',
    stage: 'header',
    pattern: /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ ([EWIDF]) \d+ \d+\] [\w.-]+:\d+: /,
    first: (c) => c === 91,
    level: (m) => toLevel(m[1]),
  },
  {
    id: 'uvicorn',
    stage: 'header',
    pattern: /^(ERROR|WARNING|INFO|DEBUG|CRITICAL):\s+/,
    first: isUpper,
    level: (m) => toLevel(m[1]),
  },
  // Any other logger whose header gives the level a field of its own, after a time or in a shape no message
  // starts with (the last rows: a format named above reads its own). Without them an unknown application's
  // `ERROR` line has no level, and neither its error nor its INFO chatter reads as such.
  {
    id: 'timed-level',
    stage: 'header',
    // loguru `2025-01-01 10:00:00.123 | ERROR    | mod:fn:12 - `, `2025-01-01 10:00:00,123 ERROR `, `10:00:00
    // [ERROR] `, zap's `...Z\terror\tmain.go:12\t`, env_logger's `[2025-01-01T10:00:00Z ERROR crate] `,
    // Spring's `... ERROR 123 --- [main] c.e.W : `, Ray's and flashinfer's `... INFO worker.py:1 -- `.
    pattern: new RegExp(
      String.raw`^\[?(?:\d{4}-\d\d-\d\d[T ])?\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?(?:\s*[|-])?\s*(?:\[\s*${LEVEL_ANY}\s*\]|${LEVEL_ANY}\b)(?: [\w:.-]+\])?(?:\s*\|\s*[\w.<>-]+:[\w.<>-]+:\d+ -)?(?: \d+ --- \[[^\]]*\] \S+\s+:)?[\s|:-]*(?:[\w./-]+\.\w+:\d+ --? )?`,
    ),
    first: (c) => isDigit(c) || c === 91,
    level: (m) => toLevel(m[1] ?? m[2]),
  },
  {
    id: 'leading-level',
    stage: 'header',
    // Python's basicConfig `ERROR:root:`, `ERROR - `, a level before the time `ERROR 2025-01-01 ...`, zap's
    // `error\tmain.go:12\t` after its time (a lone `[ERROR] ` stays the message's own word, as above), log4j's
    // `[ERROR] ModelServer - ` (DJL Serving's own lines).
    pattern: new RegExp(
      String.raw`^(?:\[${LEVEL_WORD} ?\] [A-Z][\w.$]* - |${LEVEL_WORD}:[\w.]+:|${LEVEL_WORD} - |(debug|info|warn|error|fatal|panic)\t[\w./-]+:\d+\t|${LEVEL_WORD} (?=\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?\s))(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?\s+(?:[\w./-]+:\d+\]\s*)?)?`,
    ),
    first: (c) => isUpper(c) || (c >= 97 && c <= 122) || c === 91,
    level: (m) => toLevel(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]),
  },
];
