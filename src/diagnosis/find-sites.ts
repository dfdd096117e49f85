import type { Frame } from '../parsing/traceback.js';
import type { SourceSite } from '../types/diagnosis.js';

/** A model's own definition: where it calls into shared layers, the line an operator recognises. */
const MODEL_CODE =
  /(?:vllm\/model_executor\/models|sglang\/srt\/models|text_generation_server\/models\/custom_modeling|tensorrt_llm\/(?:models|_torch\/models)|lmdeploy\/pytorch\/models)\/(?!utils\.py|registry\.py|__init__\.py)/;
const LAYER_CODE =
  /(?:vllm\/model_executor\/layers|sglang\/srt\/layers|text_generation_server\/layers|tensorrt_llm\/layers|lmdeploy\/pytorch\/nn)\//;
const ENGINE_CODE = /\/(?:vllm|sglang|text_generation_server|tensorrt_llm|lmdeploy)\//;

const toSite = (frame: Frame): SourceSite => ({
  file: frame.file,
  line: frame.line ?? 0,
  function: frame.function,
});

/** Where the exception was raised: the innermost frame. */
export function findRaiseSite(frames: readonly Frame[]): SourceSite | null {
  const last = frames.at(-1);
  return last ? toSite(last) : null;
}

/**
 * Where the engine crashed: the innermost frame of the model's own code, else of its layers, else of
 * the engine. Null when that is the raise site itself (nothing to tell apart).
 */
export function findCrashSite(frames: readonly Frame[]): SourceSite | null {
  const frame =
    frames.findLast((f) => MODEL_CODE.test(f.file)) ??
    frames.findLast((f) => LAYER_CODE.test(f.file)) ??
    frames.findLast((f) => ENGINE_CODE.test(f.file));
  if (!frame || frame === frames.at(-1)) return null;
  return toSite(frame);
}
