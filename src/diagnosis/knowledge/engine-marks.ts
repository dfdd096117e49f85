import type { Engine } from '../../types/diagnosis.js';
import type { ParsedLine } from '../../parsing/parsed-line.js';
import { anyOf } from './any-of.js';

/**
 * What gives an engine away, strongest first. A journal identifier or a logger format is worth more
 * than a word in a message, since Ollama logs carry llama.cpp's lines and vLLM's carry Ray's.
 */
interface EngineMark {
  engine: Engine;
  weight: number;
  test: (line: ParsedLine) => boolean;
  /** The pattern a mark reads in the message, if it reads one: asked together first (most lines hold none). */
  text?: RegExp;
}

const formatIs = (id: string) => (line: ParsedLine) => line.formats.includes(id);
const identIs = (pattern: RegExp) => (line: ParsedLine) => line.ident !== null && pattern.test(line.ident);
const textHas = (pattern: RegExp) => ({ test: (line: ParsedLine) => pattern.test(line.text), text: pattern });

export const ENGINE_MARKS: readonly EngineMark[] = [
  { engine: 'ollama', weight: 5, test: identIs(/^ollama/) },
  { engine: 'vllm', weight: 5, test: identIs(/vllm/i) },
  { engine: 'sglang', weight: 5, test: identIs(/sglang/i) },
  { engine: 'tgi', weight: 5, test: identIs(/text-generation|tgi/i) },
  { engine: 'llamacpp', weight: 5, test: identIs(/^llama[-_]?(?:server|cpp)/i) },
  { engine: 'vllm', weight: 3, test: formatIs('vllm-logger') },
  {
    engine: 'vllm',
    weight: 3,
    test: (line) => /^(?:Worker_|EngineCore|APIServer|VllmWorker|RayWorkerWrapper)/.test(line.process ?? ''),
  },
  { engine: 'sglang', weight: 3, test: formatIs('sglang-logger') },
  { engine: 'tgi', weight: 3, test: formatIs('tgi-tracing') },
  { engine: 'trtllm', weight: 3, test: formatIs('trtllm-python') },
  { engine: 'trtllm', weight: 3, test: formatIs('trtllm-cpp') },
  { engine: 'ollama', weight: 3, test: formatIs('ollama-slog') },
  { engine: 'ollama', weight: 2, test: formatIs('go-log') },
  { engine: 'lmdeploy', weight: 3, ...textHas(/\[TM\]\[|\blmdeploy\b|turbomind/i) },
  { engine: 'tgi', weight: 2, ...textHas(/text_generation_|text-generation-launcher/) },
  { engine: 'trtllm', weight: 2, ...textHas(/tensorrt_llm|TensorRT-LLM/) },
  { engine: 'ollama', weight: 2, ...textHas(/\bollama\b|\[GIN\]/i) },
  {
    engine: 'llamacpp',
    weight: 1,
    ...textHas(/^(?:llama_|ggml_|gguf_|llm_load|load_tensors|srv |slot |main: |print_info)/),
  },
  { engine: 'vllm', weight: 1, ...textHas(/\/vllm\/|\bvLLM\b/) },
  { engine: 'sglang', weight: 1, ...textHas(/\/sglang\/|\bsglang\b/i) },
];

const OTHER_MARKS = ENGINE_MARKS.filter((mark) => mark.text === undefined);
const TEXT_MARKS = ENGINE_MARKS.filter((mark) => mark.text !== undefined);
const mayHoldTextMark = anyOf(TEXT_MARKS.map((mark) => mark.text as RegExp));

/** Adds this line's votes. */
export function voteEngine(line: ParsedLine, votes: Map<Engine, number>): void {
  for (const mark of otherMarksOf(line)) addVote(mark, votes);
  if (!mayHoldTextMark(line.text)) return;
  for (const mark of TEXT_MARKS) if (mark.test(line)) addVote(mark, votes);
}

/**
 * The marks that read no message read only a line's identifier, process and formats, which a log repeats
 * on nearly every line: the marks they earn are kept per process and identifier, with the formats.
 */
interface Place {
  formats: readonly string[];
  marks: readonly EngineMark[];
}
const places = new Map<string, Map<string, Place[]>>();
const MAX_PROCESSES = 1024;

function otherMarksOf(line: ParsedLine): readonly EngineMark[] {
  const process = line.process ?? '';
  let byIdent = places.get(process);
  if (byIdent === undefined) {
    if (places.size >= MAX_PROCESSES) places.clear();
    byIdent = new Map();
    places.set(process, byIdent);
  }
  const ident = line.ident ?? '';
  let known = byIdent.get(ident);
  if (known === undefined) {
    if (byIdent.size >= 64) byIdent.clear();
    known = [];
    byIdent.set(ident, known);
  }
  for (const place of known) if (sameFormats(place.formats, line.formats)) return place.marks;
  const marks = OTHER_MARKS.filter((mark) => mark.test(line));
  // A few formats a place at most; a log that varies them without end is read mark by mark.
  if (known.length < 16) known.push({ formats: [...line.formats], marks });
  return marks;
}

function sameFormats(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function addVote(mark: EngineMark, votes: Map<Engine, number>): void {
  votes.set(mark.engine, (votes.get(mark.engine) ?? 0) + mark.weight);
}
