import type { EngineProgressSpec } from '../define-engine-progress.js';
import llamacpp from './llamacpp.js';
import ollama from './ollama.js';
import sglang from './sglang.js';
import tgi from './tgi.js';
import vllm from './vllm.js';

/** Every engine whose start-up vigil follows, most specific detection first (SGLang logs vLLM lines). */
export const ENGINE_PROGRESS: readonly EngineProgressSpec[] = [sglang, vllm, tgi, llamacpp, ollama];
