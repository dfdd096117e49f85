/**
 * Log text for the hostile tests, built in code so that each test states what it plants.
 */

const SITE = '/opt/vllm/lib/python3.12/site-packages';

/** One worker's `WorkerProc failed to start` traceback through deepseek_v2.py into flashinfer's version check. */
export function workerTraceback(tp: number, pid: number): string[] {
  const tag = `(Worker_TP${tp} pid=${pid}) ERROR 02-20 23:33:10 [multiproc_executor.py:772] `;
  return [
    `(Worker_TP${tp} pid=${pid}) WARNING 02-20 23:33:02 [symm_mem.py:67] SymmMemCommunicator: Device capability 12.0 not supported, communicator is not available.`,
    ...[
      'WorkerProc failed to start.',
      'Traceback (most recent call last):',
      `  File "${SITE}/vllm/v1/executor/multiproc_executor.py", line 743, in worker_main`,
      '    worker = WorkerProc(*args, **kwargs)',
      '             ^^^^^^^^^^^^^^^^^^^^^^^^^^^',
      `  File "${SITE}/vllm/v1/worker/gpu_worker.py", line 266, in load_model`,
      '    self.model_runner.load_model(eep_scale_up=eep_scale_up)',
      `  File "${SITE}/vllm/model_executor/models/deepseek_v2.py", line 998, in __init__`,
      '    self.self_attn = attn_cls(',
      '                     ^^^^^^^^^',
      `  File "${SITE}/vllm/model_executor/layers/mla.py", line 932, in __init__`,
      '    self.mla_attn = MLAAttention(',
      '  File "<frozen importlib._bootstrap>", line 1331, in _find_and_load_unlocked',
      '  File "<frozen importlib._bootstrap>", line 935, in _load_unlocked',
      `  File "${SITE}/flashinfer/__init__.py", line 25, in <module>`,
      '    _check_version()',
      `  File "${SITE}/flashinfer/__init__.py", line 19, in _check_version`,
      '    raise RuntimeError(',
      'RuntimeError: flashinfer-cubin version (0.6.3) does not match flashinfer version (0.6.4). Please install the same version of both packages. Set FLASHINFER_DISABLE_VERSION_CHECK=1 to bypass this check.',
    ].map((text) => tag + text),
  ];
}

/** What EngineCore and the API server print after the workers died: wrappers that point elsewhere. */
export const AFTERMATH: readonly string[] = [
  '(EngineCore_DP0 pid=2100) ERROR 02-20 23:33:11 [core.py:946] EngineCore failed to start.',
  '(EngineCore_DP0 pid=2100) ERROR 02-20 23:33:11 [core.py:946] Traceback (most recent call last):',
  `(EngineCore_DP0 pid=2100) ERROR 02-20 23:33:11 [core.py:946]   File "${SITE}/vllm/v1/engine/core.py", line 937, in run_engine_core`,
  '(EngineCore_DP0 pid=2100) ERROR 02-20 23:33:11 [core.py:946]     engine_core = EngineCoreProc(*args, **kwargs)',
  `(EngineCore_DP0 pid=2100) ERROR 02-20 23:33:11 [core.py:946]   File "${SITE}/vllm/v1/executor/multiproc_executor.py", line 582, in wait_for_ready`,
  '(EngineCore_DP0 pid=2100) ERROR 02-20 23:33:11 [core.py:946]     raise e from None',
  '(EngineCore_DP0 pid=2100) ERROR 02-20 23:33:11 [core.py:946] Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.',
  '(APIServer pid=2001) Traceback (most recent call last):',
  `(APIServer pid=2001)   File "${SITE}/vllm/v1/engine/utils.py", line 1055, in wait_for_engine_startup`,
  '(APIServer pid=2001)     raise RuntimeError(',
  '(APIServer pid=2001) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}',
];

export const WORKER_COUNT = 8;

/** Each worker's lines, in the order that worker printed them. */
export function workerStreams(): string[][] {
  return Array.from({ length: WORKER_COUNT }, (_, tp) => workerTraceback(tp, 2211 + tp));
}

/** Merges streams in the order `picks` chooses (each pick names a stream), keeping each stream's own order. */
export function interleave(streams: readonly (readonly string[])[], picks: readonly number[]): string[] {
  const cursors = streams.map(() => 0);
  const out: string[] = [];
  let pick = 0;
  const total = streams.reduce((sum, s) => sum + s.length, 0);
  while (out.length < total) {
    const live = streams.map((s, i) => i).filter((i) => (cursors[i] ?? 0) < (streams[i]?.length ?? 0));
    const chosen = live[(picks[pick++] ?? 0) % live.length] ?? 0;
    const cursor = cursors[chosen] ?? 0;
    out.push(streams[chosen]?.[cursor] ?? '');
    cursors[chosen] = cursor + 1;
  }
  return out;
}

// Fake credentials with real shapes, planted in a crash so that they reach the root cause and the evidence.
export const SECRETS = {
  hfToken: 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
  openAiKey: 'sk-proj-Ab3dEf6hIj9kLmN0pQrStUvWxYz12AbCdEfGhIjKlMnOp',
  urlPassword: 'hunter2Secret99',
  apiKey: 'vllm-Key-0123456789abcdef',
} as const;

/** A failing start whose root-cause message and nearby lines carry secrets. */
export const LEAKY_CRASH = [
  `(APIServer pid=7) INFO 02-20 23:31:36 [utils.py:253] non-default args: {'model': 'meta-llama/Llama-3.1-8B-Instruct', 'api_key': '${SECRETS.apiKey}'}`,
  `(APIServer pid=7) INFO 02-20 23:31:36 [api_server.py:1] vLLM API server, argv: --api-key ${SECRETS.apiKey} --hf-token ${SECRETS.hfToken}`,
  '(APIServer pid=7) Traceback (most recent call last):',
  `(APIServer pid=7)   File "${SITE}/huggingface_hub/utils/_http.py", line 409, in hf_raise_for_status`,
  '(APIServer pid=7)     response.raise_for_status()',
  `(APIServer pid=7) RuntimeError: cannot fetch config with token ${SECRETS.hfToken} from https://bob:${SECRETS.urlPassword}@mirror.example.com/meta-llama (OPENAI_API_KEY=${SECRETS.openAiKey})`,
].join('\n');
