#!/usr/bin/env node
// generate-journal.mjs — a deterministic, realistic journald log of an 8-worker vLLM (V1, >= 0.8) server
// that served traffic for days and then crashed.
//
//   node bench/generate-journal.mjs --size 100m|1g|4g --out FILE [--seed 7] [--shape NAME]
//
// Shapes (the same server, told differently; each still ends in the planted crash):
//   * journal: as below;
//   * cut: without its first 2,000 lines (what `journalctl --since`, a rotated file or `docker logs --since`
//     gives): no start, no ready line;
//   * reworded: the banner, the engine's start line and the ready lines in words no engine uses;
//   * request-errors: a tenth of the lines are ERROR-level request failures that quote the prompt's error
//     words (`Error in request …: 'Why does my build fail with error: …'`).
//
// Writes FILE and FILE.meta.json (the planted root cause, its line number, the line count).
//
// Shape of the log:
//   * journald short format: `Feb 18 06:10:27 gpu-node-07 vllm[3190412]: <line>` (one stream, the main pid);
//   * ten processes with vLLM >= 0.8 tags: APIServer, EngineCore_DP0, Worker_TP0..7, e.g.
//     `(Worker_TP3 pid=3190724) INFO 02-18 06:10:27 [gpu_model_runner.py:2042] msg`;
//   * a start-up section (banner, weight loading with tqdm bars, KV cache sizing, CUDA graph capture);
//   * days of steady state: uvicorn access lines, request logs (prompts that mention errors), scheduler and
//     worker chatter, metrics every 10 s, /health and /metrics probes, benign warnings (fused-MoE config
//     "not found", preemption, SymmMemCommunicator "not supported", FutureWarning, destroy_process_group,
//     gpt_oss_triton_kernels) and benign single-line ERRORs (bad prompts, tool-call parsing);
//   * at the very end a traceback storm: Worker_TP5 runs out of GPU memory (the planted root cause) and the
//     seven other workers fail as a consequence (NCCL remote error / gloo "Connection closed by peer"), their
//     tracebacks interleaved line by line; then EngineCore's fatal error, APIServer's EngineDeadError, 500s,
//     shutdown and the systemd failure.
//
// Speed: steady-state lines come from a pool of pre-rendered bodies (refreshed continuously, so bodies do not
// repeat in a short period) joined with per-second timestamp strings and written in 4 MiB blocks, which gives
// a few hundred MB/s. The same seed and size always give the same bytes.
import process from 'node:process';
import console from 'node:console';
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Bumped whenever the output changes, so that the bench regenerates stale files. */
export const GENERATOR_VERSION = 1;

export const PLANTED = {
  process: 'Worker_TP5',
  exception: 'torch.OutOfMemoryError',
  message:
    'CUDA out of memory. Tried to allocate 2.00 GiB. GPU 5 has a total capacity of 79.19 GiB of which 1.02 GiB is free. ' +
    'Including non-PyTorch memory, this process has 78.16 GiB memory in use. Of the allocated memory 74.10 GiB is ' +
    'allocated by PyTorch, with 1.20 GiB allocated in private pools (e.g., CUDA Graphs), and 2.51 GiB is reserved by ' +
    'PyTorch but unallocated. If reserved but unallocated memory is large try setting ' +
    'PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory ' +
    'Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)',
  /** What a correct diagnosis's rootCause.message must contain. */
  messageNeedle: 'CUDA out of memory. Tried to allocate 2.00 GiB',
};

/** '100m' | '1g' | '4g' | '250k' | plain bytes → bytes (10^3 multiples, as MB/GB are quoted). */
export function parseSize(text) {
  const m = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(String(text).trim());
  if (!m) throw new Error(`bad size ${JSON.stringify(text)} (use e.g. 100m, 1g, 4g)`);
  const mult = { '': 1, k: 1e3, m: 1e6, g: 1e9 }[m[2].toLowerCase()];
  return Math.round(Number(m[1]) * mult);
}

const HOST = 'gpu-node-07';
const UNIT = 'vllm';
const MAIN_PID = 3190412;
const VENV = '/opt/vllm/.venv/lib/python3.12/site-packages';
const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const p2 = (n) => (n < 10 ? '0' : '') + n;

const API = { name: 'APIServer', pid: MAIN_PID };
const ENGINE = { name: 'EngineCore_DP0', pid: 3190655 };
const WORKERS = Array.from({ length: 8 }, (_, i) => ({ name: `Worker_TP${i}`, pid: 3190721 + i, rank: i }));
const tag = (p) => `(${p.name} pid=${p.pid}) `;

const PROMPTS = [
  'Summarise the following meeting notes in three bullet points:\\n',
  'Translate to German: The shipment will arrive on Tuesday.',
  'Why does my build fail with error: cannot find -lcuda when linking?',
  'Write a haiku about autumn rain.',
  'My pytest run says fixture not found, what does that mean?',
  'Explain the difference between a process and a thread.',
  "I get ModuleNotFoundError: No module named \\'numpy\\' in a fresh venv. How do I fix it?",
  'Refactor this function so it does not raise an exception on empty input:\\ndef head(xs):\\n    return xs[0]',
  'List five national parks in Canada.',
  'Is HTTP/3 not supported by nginx 1.18?',
  'Draft a polite reply declining the invitation.',
  'What is the time complexity of heapq.heappush?',
  'The API returns 404 not found for /v2/items, but /v1/items works. Why?',
  'Convert 72 degrees Fahrenheit to Celsius.',
  'Give me a SQL query for the top 10 customers by revenue.',
  'Error handling in Go vs Rust: compare briefly.',
];
const MODEL = 'moonshotai/Kimi-K2-Instruct';
const ENDPOINTS = [
  ['POST /v1/chat/completions', 0.8],
  ['POST /v1/completions', 0.1],
  ['GET /v1/models', 0.06],
  ['POST /tokenize', 0.04],
];

export const SHAPES = ['journal', 'cut', 'reworded', 'request-errors'];
/** Lines the `cut` shape drops from the start. */
const CUT_LINES = 2000;
/** The share of the `request-errors` shape's lines that are request failures. */
const REQUEST_ERRORS = 0.1;

export function generateJournal({ size, out, seed = 7, shape = 'journal', onProgress } = {}) {
  if (!SHAPES.includes(shape)) throw new Error(`unknown shape ${shape} (one of ${SHAPES.join(', ')})`);
  const target = typeof size === 'number' ? size : parseSize(size);
  const cutLines = shape === 'cut' ? CUT_LINES : 0;
  const requestErrors = shape === 'request-errors' ? REQUEST_ERRORS : 0;
  /** The start-up's marker lines, or words no engine uses for them. */
  const say =
    shape === 'reworded'
      ? {
          banner: 'OpenAI-compatible frontend, release 0.10.1.1',
          engine: 'Building an inference engine (release 0.10.1.1) with config:',
          serving: 'Frontend 0 bound to http://0.0.0.0:8000',
          process: 'INFO:     Server process [3190412] up',
          waiting: 'INFO:     Preparing the application.',
          ready: 'INFO:     Application ready for requests.',
        }
      : {
          banner: 'vLLM API server version 0.10.1.1',
          engine: 'Initializing a V1 LLM engine (v0.10.1.1) with config:',
          serving: 'Starting vLLM API server 0 on http://0.0.0.0:8000',
          process: 'INFO:     Started server process [3190412]',
          waiting: 'INFO:     Waiting for application startup.',
          ready: 'INFO:     Application startup complete.',
        };
  let s = seed >>> 0;
  const rnd = () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const ri = (a, b) => a + Math.floor(rnd() * (b - a + 1));
  const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
  const f1 = (a, b) => (a + rnd() * (b - a)).toFixed(1);
  const hex = (n) => {
    let h = '';
    while (h.length < n)
      h += Math.floor(rnd() * 4294967296)
        .toString(16)
        .padStart(8, '0');
    return h.slice(0, n);
  };
  const ips = Array.from({ length: 48 }, () => `10.${ri(0, 3)}.${ri(0, 255)}.${ri(1, 254)}`);

  // ---- time: ms since epoch (UTC); stamps re-rendered once per second ----
  let t = Date.UTC(2026, 1, 17, 9, 12, 5, 0);
  let sec = -1;
  let js = ''; // journald `Feb 17 09:12:05`
  let vs = ''; // vLLM `02-17 09:12:05`
  let glog = ''; // c10d `W217 09:12:05`
  const HP = ` ${HOST} ${UNIT}[${MAIN_PID}]: `;
  let jsHPB = Buffer.alloc(0); // js + HP, encoded
  let vsB = Buffer.alloc(0);
  const SYSD = ` ${HOST} systemd[1]: `;
  const restamp = () => {
    const d = new Date(sec * 1000);
    const mo = d.getUTCMonth();
    const day = p2(d.getUTCDate());
    const hms = `${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}`;
    js = `${MON[mo]} ${day} ${hms}`;
    vs = `${p2(mo + 1)}-${day} ${hms}`;
    glog = `${mo + 1}${day} ${hms}`;
    jsHPB = Buffer.from(js + HP, 'latin1');
    vsB = Buffer.from(vs, 'latin1');
  };
  const tick = () => {
    const nsec = Math.floor(t / 1000);
    if (nsec !== sec) {
      sec = nsec;
      restamp();
      return true;
    }
    return false;
  };
  tick();

  // ---- output: lines are encoded straight into a 4 MiB buffer (joining millions of rope strings is slower) ----
  const fd = fs.openSync(out, 'w');
  const CAP = 4 << 20;
  const SLACK = 256 << 10;
  const ob = Buffer.allocUnsafe(CAP + SLACK);
  let off = 0;
  let written = 0;
  let lines = 0;
  /** Lines of the start still to drop (the `cut` shape). */
  let dropping = cutLines;
  const flush = () => {
    let o = 0;
    while (dropping > 0 && o < off) {
      o = ob.indexOf(0x0a, o) + 1;
      if (o === 0) throw new Error('a dropped line ends past the output buffer');
      dropping--;
    }
    const from = o;
    while (o < off) o += fs.writeSync(fd, ob, o, off - o);
    written += off - from;
    off = 0;
    if (onProgress) onProgress(written, target);
  };
  /** any line (UTF-8) */
  const emit = (text) => {
    if (text.length * 3 > SLACK) throw new Error('line too long for the output buffer');
    off += ob.utf8Write(text, off);
    lines++;
    if (off >= CAP) flush();
  };

  /** a vLLM logger line: `(P pid=N) LEVEL MM-DD HH:MM:SS [file:line] msg` */
  const vl = (p, level, src, msg) => emit(`${js}${HP}${tag(p)}${level} ${vs} [${src}] ${msg}\n`);
  /** raw stderr of a process, behind its tag */
  const raw = (p, msg) => emit(`${js}${HP}${tag(p)}${msg}\n`);
  const sysd = (msg) => emit(`${js}${SYSD}${msg}\n`);
  const access = (p, ep, code) =>
    raw(p, `INFO:     ${pick(ips)}:${ri(30000, 65000)} - "${ep} HTTP/1.1" ${code}`);

  // ---- pool of steady-state line bodies: pre + (stamp + post | nothing) ----
  // A body is `pre` (tag, level) and `post` (` [file:line] msg\n`), or `pre` alone (a complete line tail,
  // `post` = '') for lines without the vLLM stamp (uvicorn access lines).
  const POOL = 1 << 12; // small enough to stay in cache: random picks from a big pool are cache misses
  const pre = new Array(POOL);
  const post = new Array(POOL);
  const reqId = () => `chatcmpl-${hex(32)}`;
  const samplingParams = () =>
    `SamplingParams(n=1, presence_penalty=0.0, frequency_penalty=0.0, repetition_penalty=1.0, temperature=${pick(['0.0', '0.6', '0.7', '1.0'])}, top_p=${pick(['1.0', '0.95', '0.8'])}, top_k=${pick(['0', '20', '-1'])}, min_p=0.0, seed=None, stop=[], stop_token_ids=[], bad_words=[], include_stop_str_in_output=False, ignore_eos=False, max_tokens=${ri(256, 16384)}, min_tokens=0, logprobs=None, prompt_logprobs=None, skip_special_tokens=True, spaces_between_special_tokens=True, truncate_prompt_tokens=None, guided_decoding=None, extra_args=None)`;
  const preB = new Array(POOL);
  const postB = new Array(POOL);
  const fill = (i) => {
    fillText(i);
    preB[i] = Buffer.from(pre[i], 'latin1');
    postB[i] = post[i] === '' ? null : Buffer.from(post[i], 'latin1');
  };
  const fillText = (i) => {
    if (requestErrors > 0 && rnd() < requestErrors) {
      pre[i] = `${tag(API)}ERROR `;
      post[i] =
        rnd() < 0.5
          ? ` [serving_chat.py:${ri(200, 1300)}] Error in request ${reqId()}: prompt '<|im_start|>user\\n${pick(PROMPTS)}<|im_end|>' needs ${ri(131073, 200000)} tokens, the model's context is 131072\n`
          : ` [serving_engine.py:${ri(300, 700)}] Error with model error=ErrorInfo(message='${pick(PROMPTS).slice(0, 60)}... is not a valid tool call', type='BadRequestError', param=None, code=400)\n`;
      return;
    }
    const r = rnd();
    if (r < 0.3) {
      // APIServer: uvicorn access line (no vLLM stamp)
      let e = rnd();
      let ep = ENDPOINTS[0][0];
      for (const [name, w] of ENDPOINTS) {
        if (e < w) {
          ep = name;
          break;
        }
        e -= w;
      }
      pre[i] = `${tag(API)}INFO:     ${pick(ips)}:${ri(30000, 65000)} - "${ep} HTTP/1.1" 200 OK\n`;
      post[i] = '';
      return;
    }
    if (r < 0.4) {
      pre[i] = `${tag(API)}INFO `;
      const q = rnd();
      if (q < 0.45) post[i] = ` [async_llm.py:${ri(270, 290)}] Added request ${reqId()}.\n`;
      else if (q < 0.55) post[i] = ` [async_llm.py:${ri(430, 440)}] Aborted request ${reqId()}.\n`;
      else
        post[i] =
          ` [logger.py:43] Received request ${reqId()}: prompt: '<|im_start|>user\\n${pick(PROMPTS)}<|im_end|>\\n<|im_start|>assistant\\n', ` +
          `params: ${samplingParams()}, prompt_token_ids: None, prompt_embeds shape: None, lora_request: None.\n`;
      return;
    }
    if (r < 0.55) {
      pre[i] = `${tag(ENGINE)}INFO `;
      const q = rnd();
      if (q < 0.5)
        post[i] =
          ` [scheduler.py:${ri(300, 900)}] Scheduled ${ri(1, 64)} reqs, ${ri(1, 8192)} tokens, ${ri(0, 20)} waiting\n`;
      else if (q < 0.8)
        post[i] = ` [core.py:${ri(200, 700)}] Step took ${f1(5, 400)} ms, free blocks ${ri(0, 60000)}\n`;
      else post[i] = ` [kv_cache_manager.py:${ri(100, 400)}] Evicted ${ri(0, 500)} cached blocks\n`;
      return;
    }
    if (r < 0.985) {
      const w = pick(WORKERS);
      pre[i] = `${tag(w)}INFO `;
      const q = rnd();
      if (q < 0.45)
        post[i] =
          ` [gpu_model_runner.py:${ri(1000, 3500)}] Forward pass ${f1(3, 300)} ms, batch ${ri(1, 256)}\n`;
      else if (q < 0.7)
        post[i] =
          ` [custom_all_reduce.py:${ri(100, 300)}] Registering ${ri(1000, 9000)} cuda graph addresses\n`;
      else if (q < 0.9)
        post[i] = ` [block_table.py:${ri(50, 400)}] Block table for ${ri(1, 256)} reqs updated\n`;
      else
        post[i] =
          ` [worker_base.py:${ri(100, 700)}] Synchronised ${ri(1, 64)} KV transfers in ${f1(0.1, 9)} ms\n`;
      return;
    }
    // WARNING (benign)
    const q = rnd();
    if (q < 0.35) {
      pre[i] = `${tag(pick(WORKERS))}WARNING `;
      post[i] =
        ` [fused_moe.py:${ri(700, 760)}] Using default MoE config. Performance might be sub-optimal! Config file not found at ${VENV}/vllm/model_executor/layers/fused_moe/configs/E=384,N=256,device_name=NVIDIA_H100_80GB_HBM3.json\n`;
    } else if (q < 0.75) {
      pre[i] = `${tag(ENGINE)}WARNING `;
      post[i] =
        ` [scheduler.py:${ri(300, 900)}] Sequence group ${reqId()} is preempted by PreemptionMode.RECOMPUTE because there is not enough KV cache space. total_num_cumulative_preemption=${ri(1, 900)}\n`;
    } else {
      pre[i] = `${tag(API)}WARNING `;
      post[i] =
        ` [protocol.py:${ri(80, 90)}] The following fields were present in the request but ignored: {'${pick(['stream_options', 'reasoning_effort', 'metadata', 'store'])}'}\n`;
    }
  };
  for (let i = 0; i < POOL; i++) fill(i);

  // ---- start-up ----
  const startup = () => {
    sysd(`Started ${UNIT}.service - vLLM OpenAI-compatible server (${MODEL}).`);
    vl(API, 'INFO', '__init__.py:241', 'Automatically detected platform cuda.');
    raw(
      API,
      `${VENV}/torch/cuda/__init__.py:63: FutureWarning: The pynvml package is deprecated. Please install nvidia-ml-py instead. If you did not install pynvml directly, please report this to the maintainers of the package that installed pynvml for you.`,
    );
    vl(API, 'INFO', 'api_server.py:1805', say.banner);
    vl(
      API,
      'INFO',
      'utils.py:326',
      `non-default args: {'model_tag': '${MODEL}', 'host': '0.0.0.0', 'model': '${MODEL}', 'trust_remote_code': True, 'max_model_len': 131072, 'served_model_name': ['kimi-k2'], 'tensor_parallel_size': 8, 'enable_prefix_caching': True, 'enable_log_requests': True}`,
    );
    vl(API, 'INFO', 'config.py:726', 'Resolved architecture: DeepseekV3ForCausalLM');
    vl(API, 'INFO', 'config.py:1759', 'Using max model len 131072');
    vl(API, 'INFO', 'config.py:2588', 'Chunked prefill is enabled with max_num_batched_tokens=8192.');
    vl(ENGINE, 'INFO', 'core.py:654', 'Waiting for init message from front-end.');
    vl(
      ENGINE,
      'INFO',
      'core.py:73',
      `${say.engine} model='${MODEL}', tensor_parallel_size=8, dtype=torch.bfloat16, max_seq_len=131072, quantization=fp8, enforce_eager=False, kv_cache_dtype=auto, seed=0, enable_prefix_caching=True, chunked_prefill_enabled=True`,
    );
    for (const w of WORKERS)
      vl(
        w,
        'INFO',
        'parallel_state.py:1134',
        `rank ${w.rank} in world size 8 is assigned as DP rank 0, PP rank 0, TP rank ${w.rank}, EP rank ${w.rank}`,
      );
    for (const w of WORKERS)
      vl(
        w,
        'WARNING',
        'symm_mem.py:67',
        'SymmMemCommunicator: Device capability 9.0 not supported, communicator is not available.',
      );
    for (const w of WORKERS)
      vl(w, 'INFO', 'custom_all_reduce.py:35', "Skipping P2P check and trusting the driver's P2P report.");
    vl(WORKERS[0], 'INFO', 'gpu_model_runner.py:1953', `Starting to load model ${MODEL}...`);
    vl(WORKERS[0], 'INFO', 'cuda.py:328', 'Using Flash Attention MLA backend on V1 engine.');
    for (let k = 1; k <= 62; k += ri(1, 4)) {
      const pct = Math.floor((k / 62) * 100);
      const bars = Math.floor(pct / 10);
      raw(
        WORKERS[0],
        `Loading safetensors checkpoint shards: ${String(pct).padStart(3)}% Completed | ${'█'.repeat(bars)}${bars < 10 ? '▏' : ''}${' '.repeat(Math.max(0, 9 - bars))}| ${k}/62 [00:${p2(ri(0, 59))}<00:${p2(ri(0, 59))},  ${f1(0.5, 3)}it/s]`,
      );
      t += ri(200, 900);
      tick();
    }
    for (const w of WORKERS)
      vl(w, 'INFO', 'default_loader.py:262', `Loading weights took ${f1(50, 70)} seconds`);
    for (const w of WORKERS)
      vl(
        w,
        'INFO',
        'gpu_model_runner.py:2007',
        `Model loading took 119.${ri(10, 99)} GiB and ${f1(70, 90)} seconds`,
      );
    vl(ENGINE, 'INFO', 'gpu_worker.py:276', 'Available KV cache memory: 6.44 GiB');
    vl(ENGINE, 'INFO', 'kv_cache_utils.py:849', 'GPU KV cache size: 421,888 tokens');
    vl(ENGINE, 'INFO', 'kv_cache_utils.py:853', 'Maximum concurrency for 131,072 tokens per request: 3.22x');
    raw(
      WORKERS[0],
      'Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 100%|██████████| 67/67 [00:21<00:00,  3.12it/s]',
    );
    for (const w of WORKERS)
      vl(
        w,
        'INFO',
        'gpu_model_runner.py:2708',
        `Graph capturing finished in ${ri(20, 30)} secs, took 1.${ri(10, 99)} GiB`,
      );
    vl(
      ENGINE,
      'INFO',
      'core.py:214',
      `init engine (profile, create kv cache, warmup model) took ${f1(80, 120)} seconds`,
    );
    vl(API, 'INFO', 'api_server.py:1611', "Supported_tasks: ['generate']");
    vl(API, 'INFO', 'api_server.py:1880', say.serving);
    for (const r of [
      '/openapi.json',
      '/docs',
      '/health',
      '/metrics',
      '/tokenize',
      '/v1/models',
      '/v1/chat/completions',
      '/v1/completions',
    ])
      vl(
        API,
        'INFO',
        'launcher.py:37',
        `Route: ${r}, Methods: ${r.startsWith('/v1/c') || r === '/tokenize' ? 'POST' : 'GET, HEAD'}`,
      );
    raw(API, say.process);
    raw(API, say.waiting);
    raw(API, say.ready);
  };

  // ---- rare benign events (multi-line or with an access line) ----
  const benign = () => {
    const q = rnd();
    if (q < 0.3) {
      vl(
        API,
        'ERROR',
        `serving_chat.py:${ri(200, 240)}`,
        `Error in preprocessing prompt inputs: This model's maximum context length is 131072 tokens. However, you requested ${ri(131073, 200000)} tokens in the messages. Please reduce the length of the messages.`,
      );
      access(API, 'POST /v1/chat/completions', '400 Bad Request');
    } else if (q < 0.5) {
      vl(
        API,
        'ERROR',
        `hermes_tool_parser.py:${ri(140, 150)}`,
        'Error in extracting tool call from response.',
      );
    } else if (q < 0.7) {
      access(API, `GET /v1/models/${pick(['gpt-4o', 'llama-3-70b', 'kimi'])}`, '404 Not Found');
    } else {
      vl(
        API,
        'WARNING',
        'serving_chat.py:1380',
        "Tool choice 'required' is not supported for model kimi-k2 with this parser; falling back to 'auto'",
      );
    }
  };
  // an hourly burst of benign warnings (a sidecar health probe spawning a helper process)
  const hourly = () => {
    raw(
      API,
      `${VENV}/vllm/transformers_utils/tokenizer.py:${ri(200, 260)}: FutureWarning: Passing \`use_fast=False\` is not supported in future versions of transformers; the slow tokenizer will be removed.`,
    );
    vl(
      pick(WORKERS),
      'WARNING',
      'mxfp4.py:' + ri(100, 140),
      'gpt_oss_triton_kernels not found, MXFP4 MoE will use the Marlin fallback for the draft model.',
    );
    vl(
      pick(WORKERS),
      'WARNING',
      'symm_mem.py:67',
      'SymmMemCommunicator: Device capability 9.0 not supported, communicator is not available.',
    );
    emit(
      `${js}${HP}[rank0]:[W${glog}.${ri(100000000, 999999999)} ProcessGroupNCCL.cpp:1538] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources. For more info, please see https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())\n`,
    );
  };
  const metrics = () =>
    vl(
      API,
      'INFO',
      `loggers.py:${ri(118, 124)}`,
      `Engine 000: Avg prompt throughput: ${f1(0, 9000)} tokens/s, Avg generation throughput: ${f1(0, 900)} tokens/s, Running: ${ri(0, 64)} reqs, Waiting: ${ri(0, 20)} reqs, GPU KV cache usage: ${f1(0, 99)}%, Prefix cache hit rate: ${f1(0, 99)}%`,
    );

  // ---- the crash ----
  const frame = (file, line, fn, code, caret) => {
    const out = [`  File "${VENV}/${file}", line ${line}, in ${fn}`, `    ${code}`];
    if (caret) out.push(`    ${' '.repeat(caret[0])}${'^'.repeat(caret[1])}`);
    return out;
  };
  const busyLoop = () => [
    'WorkerProc hit an exception.',
    'Traceback (most recent call last):',
    ...frame(
      'vllm/v1/executor/multiproc_executor.py',
      666,
      'worker_busy_loop',
      'output = func(*args, **kwargs)',
      [9, 21],
    ),
    ...frame('torch/utils/_contextlib.py', 120, 'decorate_context', 'return func(*args, **kwargs)', [7, 21]),
    ...frame(
      'vllm/v1/worker/gpu_worker.py',
      447,
      'execute_model',
      'output = self.model_runner.execute_model(scheduler_output,',
      [9, 41],
    ),
    ...frame(
      'vllm/v1/worker/gpu_model_runner.py',
      1741,
      'execute_model',
      'model_output = self.model(',
      [15, 11],
    ),
    ...frame(
      'torch/nn/modules/module.py',
      1773,
      '_wrapped_call_impl',
      'return self._call_impl(*args, **kwargs)',
      [7, 32],
    ),
    ...frame(
      'torch/nn/modules/module.py',
      1784,
      '_call_impl',
      'return forward_call(*args, **kwargs)',
      [7, 29],
    ),
    ...frame(
      'vllm/model_executor/models/deepseek_v2.py',
      744,
      'forward',
      'hidden_states = self.model(input_ids, positions, intermediate_tensors,',
      [16, 55],
    ),
    ...frame('vllm/compilation/decorators.py', 223, '__call__', 'return self.forward(*args, **kwargs)', null),
    ...frame(
      'vllm/model_executor/models/deepseek_v2.py',
      681,
      'forward',
      'hidden_states, residual = layer(positions, hidden_states, residual)',
      [26, 43],
    ),
  ];
  const oomTb = [
    ...busyLoop(),
    ...frame(
      'vllm/model_executor/models/deepseek_v2.py',
      598,
      'forward',
      'hidden_states = self.mlp(hidden_states)',
      [16, 23],
    ),
    ...frame(
      'vllm/model_executor/layers/fused_moe/layer.py',
      1612,
      'forward_impl',
      'final_hidden_states = self.quant_method.apply(',
      [22, 24],
    ),
    ...frame(
      'vllm/model_executor/layers/fused_moe/fused_moe.py',
      1562,
      'fused_experts_impl',
      'intermediate_cache1 = torch.empty((M, topk_ids.shape[1], N),',
      [22, 12],
    ),
    `${PLANTED.exception}: ${PLANTED.message}`,
  ];
  const ncclTb = [
    ...busyLoop(),
    ...frame(
      'vllm/distributed/parallel_state.py',
      310,
      'all_reduce',
      'return self.device_communicator.all_reduce(input_)',
      [7, 44],
    ),
    ...frame(
      'vllm/distributed/device_communicators/cuda_communicator.py',
      98,
      'all_reduce',
      'out = pynccl_comm.all_reduce(input_)',
      [6, 30],
    ),
    ...frame(
      'vllm/distributed/device_communicators/pynccl.py',
      131,
      'all_reduce',
      'self.nccl.ncclAllReduce(buffer_type(input_tensor.data_ptr()),',
      null,
    ),
    ...frame(
      'vllm/distributed/device_communicators/pynccl_wrapper.py',
      286,
      'NCCL_CHECK',
      'raise RuntimeError(f"NCCL error: {error_str}")',
      null,
    ),
    'RuntimeError: NCCL error: remote process exited or there was a network error',
  ];
  const glooTb = () => [
    ...busyLoop().slice(0, 5),
    ...frame(
      'vllm/distributed/device_communicators/shm_broadcast.py',
      537,
      'dequeue',
      'obj = self.local_socket.recv()',
      null,
    ),
    ...frame(
      'vllm/distributed/parallel_state.py',
      732,
      'broadcast_object',
      'torch.distributed.broadcast_object_list(recv, src=self.ranks[src], group=self.cpu_group)',
      null,
    ),
    ...frame(
      'torch/distributed/distributed_c10d.py',
      3479,
      'broadcast_object_list',
      'broadcast(object_sizes_tensor, src=src, group=group)',
      null,
    ),
    `RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.0.${ri(0, 3)}.${ri(1, 254)}]:${ri(20000, 60000)}`,
  ];
  let rootLine = 0;
  const crash = () => {
    const W = 'multiproc_executor.py:671';
    const tbs = WORKERS.map((w) => (w.name === PLANTED.process ? oomTb : w.rank < 4 ? ncclTb : glooTb()));
    const pos = tbs.map(() => 0);
    const cause = WORKERS.findIndex((w) => w.name === PLANTED.process);
    // the OOM worker starts first; then all eight interleave line by line, the consequences' last lines (their
    // exceptions) only after the cause's exception line, since they follow from it
    const emitWorker = (i) => {
      const w = WORKERS[i];
      const text = tbs[i][pos[i]++];
      if (i === cause && text.startsWith(PLANTED.exception)) rootLine = lines + 1;
      vl(w, 'ERROR', W, text);
    };
    emitWorker(cause);
    emitWorker(cause);
    for (;;) {
      const open = [];
      for (let i = 0; i < 8; i++) {
        if (pos[i] >= tbs[i].length) continue;
        if (i !== cause && pos[i] === tbs[i].length - 1 && pos[cause] < tbs[cause].length) continue;
        open.push(i);
      }
      if (open.length === 0) break;
      emitWorker(pick(open));
      if (rnd() < 0.05) access(API, 'POST /v1/chat/completions', '200 OK');
      if (rnd() < 0.2) {
        t += ri(1, 40);
        tick();
      }
    }
    t += ri(200, 600);
    tick();
    const E = (msg) => vl(ENGINE, 'ERROR', 'core.py:720', msg);
    vl(
      ENGINE,
      'ERROR',
      'dump_input.py:69',
      `Dumping input data for V1 LLM engine (v0.10.1.1) with config: model='${MODEL}', tensor_parallel_size=8, max_seq_len=131072, quantization=fp8, enable_prefix_caching=True`,
    );
    vl(
      ENGINE,
      'ERROR',
      'dump_input.py:76',
      `Dumping scheduler output for model execution: SchedulerOutput(scheduled_new_reqs=[NewRequestData(req_id=${reqId()},prompt_token_ids_len=${ri(60000, 120000)},mm_inputs=[],mm_hashes=[],mm_positions=[],sampling_params=${samplingParams()},block_ids=([${ri(1, 9000)}, ${ri(1, 9000)}, ...],),num_computed_tokens=0,lora_request=None)], scheduled_cached_reqs=CachedRequestData(req_ids=[], resumed_from_preemption=[], new_token_ids=[], new_block_ids=[], num_computed_tokens=[]), num_scheduled_tokens={}, total_num_scheduled_tokens=8192, scheduled_spec_decode_tokens={}, scheduled_encoder_inputs={}, num_common_prefix_blocks=[0], finished_req_ids=[], free_encoder_mm_hashes=[], structured_output_request_ids={}, grammar_bitmask=null, kv_connector_metadata=null)`,
    );
    E('EngineCore encountered a fatal error.');
    for (const l of [
      'Traceback (most recent call last):',
      ...frame('vllm/v1/engine/core.py', 711, 'run_engine_core', 'engine_core.run_busy_loop()', null),
      ...frame('vllm/v1/engine/core.py', 738, 'run_busy_loop', 'self._process_engine_step()', null),
      ...frame(
        'vllm/v1/engine/core.py',
        764,
        '_process_engine_step',
        'outputs, model_executed = self.step_fn()',
        [30, 14],
      ),
      ...frame(
        'vllm/v1/engine/core.py',
        292,
        'step',
        'model_output = self.execute_model_with_error_logging(',
        [15, 38],
      ),
      ...frame('vllm/v1/engine/core.py', 278, 'execute_model_with_error_logging', 'raise err', null),
      ...frame(
        'vllm/v1/engine/core.py',
        269,
        'execute_model_with_error_logging',
        'return model_fn(scheduler_output)',
        [7, 26],
      ),
      ...frame(
        'vllm/v1/executor/multiproc_executor.py',
        173,
        'execute_model',
        '(output, ) = self.collective_rpc(',
        [14, 19],
      ),
      ...frame('vllm/v1/executor/multiproc_executor.py', 259, 'collective_rpc', 'raise RuntimeError(', null),
      `RuntimeError: Worker failed with error '${PLANTED.message}', please check the stack trace above for the root cause`,
    ])
      E(l);
    t += ri(5, 60);
    tick();
    const A = (msg) => vl(API, 'ERROR', 'async_llm.py:485', msg);
    A('AsyncLLM output_handler failed.');
    for (const l of [
      'Traceback (most recent call last):',
      ...frame(
        'vllm/v1/engine/async_llm.py',
        444,
        'output_handler',
        'outputs = await engine_core.get_output_async()',
        [16, 37],
      ),
      ...frame(
        'vllm/v1/engine/core_client.py',
        845,
        'get_output_async',
        'raise self._format_exception(outputs) from None',
        null,
      ),
      'vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.',
    ])
      A(l);
    for (let k = 0; k < 12; k++) access(API, 'POST /v1/chat/completions', '500 Internal Server Error');
    raw(API, 'INFO:     Shutting down');
    raw(API, 'INFO:     Waiting for application shutdown.');
    raw(API, 'INFO:     Application shutdown complete.');
    raw(API, `INFO:     Finished server process [${MAIN_PID}]`);
    for (const w of WORKERS)
      emit(
        `${js}${HP}[rank${w.rank}]:[W${glog}.${ri(100000000, 999999999)} ProcessGroupNCCL.cpp:1538] Warning: WARNING: destroy_process_group() was not called before program exit, which can leak resources. For more info, please see https://pytorch.org/docs/stable/distributed.html#shutdown (function operator())\n`,
      );
    emit(
      `${js}${HP}/usr/lib/python3.12/multiprocessing/resource_tracker.py:279: UserWarning: resource_tracker: There appear to be 1 leaked shared_memory objects to clean up at shutdown\n`,
    );
    t += 1200;
    tick();
    sysd(`${UNIT}.service: Main process exited, code=exited, status=1/FAILURE`);
    sysd(`${UNIT}.service: Failed with result 'exit-code'.`);
    sysd(`${UNIT}.service: Consumed 4d 2h 51min 8.214s CPU time, 61.2G memory peak, 0B memory swap peak.`);
  };

  // ---- main loop ----
  startup();
  const CRASH_RESERVE = 40_000; // bytes the crash section takes, roughly
  const stopAt = target - CRASH_RESERVE;
  const mask = POOL - 1;
  let n = 0;
  // 256 steady-state lines: one pooled body each, a pool slot refreshed every 4th line; the output offset is
  // kept in a local (a closure variable is slower) and synced around the calls that emit on their own
  const steady = () => {
    let o = off;
    let l = lines;
    for (let k = 0; k < 256; k++) {
      const i = (rnd() * 4294967296) & mask;
      ob.set(jsHPB, o);
      o += jsHPB.length;
      const a = preB[i];
      ob.set(a, o);
      o += a.length;
      const b = postB[i];
      if (b !== null) {
        ob.set(vsB, o);
        o += vsB.length;
        ob.set(b, o);
        o += b.length;
      }
      l++;
      if ((++n & 3) === 0) fill((rnd() * 4294967296) & mask);
      t += (rnd() * 200) | 0; // ~10 lines a second on average
      const tk = tick();
      const bn = rnd() < 0.0015;
      if (o >= CAP || tk || bn) {
        off = o;
        lines = l;
        if (off >= CAP) flush();
        if (tk) {
          if (sec % 5 === 0) access(API, 'GET /health', '200 OK');
          if (sec % 10 === 0) metrics();
          if (sec % 15 === 0) access(API, 'GET /metrics', '200 OK');
          if (sec % 3600 === 1800) hourly();
        }
        if (bn) benign();
        o = off;
        l = lines;
      }
    }
    off = o;
    lines = l;
  };
  while (written + off < stopAt) steady();
  crash();
  flush();
  fs.closeSync(fd);
  const meta = {
    file: path.basename(out),
    generatorVersion: GENERATOR_VERSION,
    seed,
    shape,
    targetBytes: target,
    bytes: written,
    lines: lines - cutLines,
    planted: { ...PLANTED, lineNumber: rootLine - cutLines },
  };
  fs.writeFileSync(`${out}.meta.json`, JSON.stringify(meta, null, 2) + '\n');
  return meta;
}

function main(argv) {
  const args = { size: '100m', out: null, seed: 7 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--size') args.size = argv[++i];
    else if (a === '--out') args.out = argv[++i];
    else if (a === '--seed') args.seed = Number(argv[++i]);
    else if (a === '--shape') args.shape = argv[++i];
    else if (a === '-h' || a === '--help') {
      console.log(
        `usage: node bench/generate-journal.mjs --size 100m|1g|4g --out FILE [--seed N] [--shape ${SHAPES.join('|')}]`,
      );
      return 0;
    } else {
      console.error(`generate-journal: unknown argument ${a}`);
      return 2;
    }
  }
  if (!args.out) args.out = path.join('bench', 'out', `journal-${args.size}.log`);
  fs.mkdirSync(path.dirname(args.out), { recursive: true });
  const t0 = performance.now();
  const meta = generateJournal(args);
  const s = (performance.now() - t0) / 1000;
  console.log(
    `${args.out}: ${meta.bytes} bytes, ${meta.lines} lines, root cause at line ${meta.planted.lineNumber} ` +
      `(${s.toFixed(1)} s, ${(meta.bytes / 1e6 / s).toFixed(0)} MB/s)`,
  );
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
