/**
 * The flags of a vLLM or SGLang command line that decide whether the start can work: model, parallel
 * layout, memory and length. One table for both engines (and TGI's few), read the way their argparse
 * reads them: `--flag value` and `--flag=value`, the short aliases, and vLLM's `--max_model_len` spelling.
 * Pure: argv in, flags out.
 */

export type ServerEngine = 'vllm' | 'sglang' | 'tgi';

export interface ServerFlags {
  /** Which engine the command starts; null when the command does not say. */
  engine: ServerEngine | null;
  /** The model as written: `vllm serve MODEL`, --model, --model-path, --model-id. */
  model: string | null;
  tensorParallel: number | null;
  pipelineParallel: number | null;
  dataParallel: number | null;
  /**
   * Expert-parallel size: SGLang's --ep-size as given; vLLM's --enable-expert-parallel switch spreads
   * experts over TP × DP, so it is that product.
   */
  expertParallel: number | null;
  maxModelLen: number | null;
  gpuMemoryUtilization: number | null;
  kvCacheDtype: string | null;
  quantization: string | null;
  dtype: string | null;
  port: number | null;
  maxNumSeqs: number | null;
  maxNumBatchedTokens: number | null;
  enforceEager: boolean;
  /** vLLM --enable-eplb: the expert load balancer, which needs experts spread evenly. */
  enableEplb: boolean;
  /** Flags whose value could not be read (`--tp eight`), so a caller can say so instead of guessing. */
  invalid: { flag: string; value: string }[];
}

type ValueKind = 'count' | 'fraction' | 'length' | 'text';
type Key =
  | Exclude<keyof ServerFlags, 'engine' | 'invalid' | 'enforceEager' | 'enableEplb' | 'expertParallel'>
  | 'expertParallelSize';

interface FlagSpec {
  key: Key | 'enableExpertParallel' | 'enforceEager' | 'enableEplb';
  names: readonly string[];
  kind: ValueKind | 'switch';
}

// vLLM (vllm/engine/arg_utils.py), SGLang (sglang/srt/server_args.py), TGI (launcher) spellings.
const FLAGS: readonly FlagSpec[] = [
  { key: 'model', names: ['--model', '--model-path', '--model-id', '-m'], kind: 'text' },
  {
    key: 'tensorParallel',
    names: ['--tensor-parallel-size', '-tp', '--tp', '--tp-size', '--num-shard'],
    kind: 'count',
  },
  { key: 'pipelineParallel', names: ['--pipeline-parallel-size', '-pp', '--pp', '--pp-size'], kind: 'count' },
  { key: 'dataParallel', names: ['--data-parallel-size', '-dp', '--dp', '--dp-size'], kind: 'count' },
  { key: 'expertParallelSize', names: ['--ep-size', '--expert-parallel-size', '--ep'], kind: 'count' },
  { key: 'enableExpertParallel', names: ['--enable-expert-parallel', '-ep'], kind: 'switch' },
  {
    key: 'maxModelLen',
    names: ['--max-model-len', '--context-length', '--max-total-tokens'],
    kind: 'length',
  },
  {
    key: 'gpuMemoryUtilization',
    names: ['--gpu-memory-utilization', '--mem-fraction-static'],
    kind: 'fraction',
  },
  { key: 'kvCacheDtype', names: ['--kv-cache-dtype'], kind: 'text' },
  { key: 'quantization', names: ['--quantization', '-q'], kind: 'text' },
  { key: 'dtype', names: ['--dtype'], kind: 'text' },
  { key: 'port', names: ['--port'], kind: 'count' },
  { key: 'maxNumSeqs', names: ['--max-num-seqs', '--max-running-requests'], kind: 'count' },
  {
    key: 'maxNumBatchedTokens',
    names: ['--max-num-batched-tokens', '--chunked-prefill-size'],
    kind: 'count',
  },
  { key: 'enforceEager', names: ['--enforce-eager', '--disable-cuda-graph'], kind: 'switch' },
  { key: 'enableEplb', names: ['--enable-eplb'], kind: 'switch' },
];

const BY_NAME = new Map(FLAGS.flatMap((spec) => spec.names.map((name) => [name, spec] as const)));

/** Reads a server command line (the program and its arguments). Unknown flags are skipped. */
export function parseServerFlags(argv: readonly string[]): ServerFlags {
  const values = new Map<string, string | true>();
  const writtenAs = new Map<string, string>();
  const invalid: ServerFlags['invalid'] = [];
  const operands: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    // `python -m vllm.entrypoints.openai.api_server`: python's -m names a module, not the model.
    if (arg === '-m' && index === 1 && /^python[\d.]*$/.test(argv[0]?.split('/').at(-1) ?? '')) {
      index++;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-' || arg === '--') {
      operands.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const written = equals === -1 ? arg : arg.slice(0, equals);
    // vLLM's parser takes --max_model_len for --max-model-len.
    const name = written.startsWith('--') ? `--${written.slice(2).replace(/_/g, '-')}` : written;
    const spec = BY_NAME.get(name);
    if (spec === undefined) continue;
    if (spec.kind === 'switch') {
      values.set(spec.key, true);
      continue;
    }
    const value = equals === -1 ? argv[++index] : arg.slice(equals + 1);
    if (value === undefined) {
      invalid.push({ flag: written, value: '' });
      continue;
    }
    values.set(spec.key, value);
    writtenAs.set(spec.key, written);
  }
  const read = (key: Key, kind: ValueKind): number | string | null => {
    const raw = values.get(key);
    if (raw === undefined || raw === true) return null;
    const value = readValue(raw, kind);
    if (value === null) invalid.push({ flag: writtenAs.get(key) ?? key, value: raw });
    return value;
  };
  const count = (key: Key): number | null => read(key, 'count') as number | null;
  const text = (key: Key): string | null => read(key, 'text') as string | null;
  const engine = detectEngine(argv);
  const tensorParallel = count('tensorParallel');
  const dataParallel = count('dataParallel');
  const expertSize = count('expertParallelSize');
  return {
    engine,
    model: text('model') ?? servedModel(operands),
    tensorParallel,
    pipelineParallel: count('pipelineParallel'),
    dataParallel,
    expertParallel:
      expertSize ?? (values.has('enableExpertParallel') ? (tensorParallel ?? 1) * (dataParallel ?? 1) : null),
    maxModelLen: read('maxModelLen', 'length') as number | null,
    gpuMemoryUtilization: read('gpuMemoryUtilization', 'fraction') as number | null,
    kvCacheDtype: text('kvCacheDtype'),
    quantization: text('quantization'),
    dtype: text('dtype'),
    port: validPort(count('port')),
    maxNumSeqs: count('maxNumSeqs'),
    maxNumBatchedTokens: count('maxNumBatchedTokens'),
    enforceEager: values.has('enforceEager'),
    enableEplb: values.has('enableEplb'),
    invalid,
  };
}

export { parseServerFlags as parse };

function readValue(raw: string, kind: ValueKind): number | string | null {
  if (kind === 'text') return raw === '' ? null : raw;
  if (kind === 'fraction') {
    const value = Number(raw);
    return raw.trim() !== '' && Number.isFinite(value) && value > 0 && value <= 1 ? value : null;
  }
  if (kind === 'length') return readLength(raw);
  return /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
}

/** vLLM reads lengths like `32k` (×1000), `32K` (×1024), `1m`, `1M`, and plain numbers. */
function readLength(raw: string): number | null {
  const match = /^(\d+(?:\.\d+)?)([kKmMgG]?)$/.exec(raw.trim());
  if (match === null) return null;
  const scale: Record<string, number> = {
    '': 1,
    k: 1e3,
    K: 1024,
    m: 1e6,
    M: 1024 ** 2,
    g: 1e9,
    G: 1024 ** 3,
  };
  const value = Math.round(Number(match[1]) * (scale[match[2] ?? ''] ?? 1));
  return value > 0 ? value : null;
}

function validPort(port: number | null): number | null {
  return port !== null && port <= 65535 ? port : null;
}

/** `vllm serve M`, `python -m vllm.entrypoints.openai.api_server`, `python -m sglang.launch_server`, `text-generation-launcher`. */
function detectEngine(argv: readonly string[]): ServerEngine | null {
  for (const [index, arg] of argv.entries()) {
    const base = arg.split('/').at(-1) ?? arg;
    if (base === 'vllm' || arg.startsWith('vllm.')) return 'vllm';
    if (base === 'sglang' || arg.startsWith('sglang.')) return 'sglang';
    if (base === 'text-generation-launcher') return 'tgi';
    if (index > 2 && !arg.startsWith('-')) break;
  }
  return null;
}

/** The model operand of `vllm serve MODEL` (and `sglang serve`): the first operand after `serve`. */
function servedModel(operands: readonly string[]): string | null {
  const serve = operands.indexOf('serve');
  return serve === -1 ? null : (operands[serve + 1] ?? null);
}
