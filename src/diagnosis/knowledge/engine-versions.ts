import type { Engine } from '../../types/diagnosis.js';
import { anyOf } from './any-of.js';

/** A release as the engines print it: `0.10.1.1`, `0.16.0rc2.dev344+gea5f903f8`, `0.18.0.dev2025022500`. */
const RELEASE = String.raw`\d+(?:\.\d+)+(?:(?:a|b|rc|\.?post|\.?dev)\d*)*(?:\+[\w.]+)?`;

/**
 * The lines where an engine prints its own version at start-up, each from the engine's source. SGLang,
 * TGI and LMDeploy print none in their default start-up logs. The version is the pattern's first group,
 * or for llama.cpp the build number and commit.
 */
export const ENGINE_VERSION_LINES: readonly { engine: Engine; pattern: RegExp }[] = [
  // vllm/entrypoints/openai/api_server.py: logger.info("vLLM API server version %s", VLLM_VERSION)
  { engine: 'vllm', pattern: new RegExp(String.raw`\bvLLM API server version (${RELEASE})`) },
  // vllm/entrypoints/utils.py (0.11 and later): the start banner, `▄▄ ▄█ █ ... █  version 0.15.0`
  { engine: 'vllm', pattern: new RegExp(String.raw`█ +version (${RELEASE})`) },
  // vllm/v1/engine/llm_engine.py and older: "Initializing a V1 LLM engine (v0.8.3) with config: ..."
  {
    engine: 'vllm',
    pattern: new RegExp(String.raw`^Initializing (?:a V1 LLM engine|an LLM engine) \(v(${RELEASE})\)`),
  },
  // tensorrt_llm/__init__.py prints "[TensorRT-LLM] TensorRT-LLM version: 0.18.0" on import.
  { engine: 'trtllm', pattern: new RegExp(String.raw`\[TensorRT-LLM\] TensorRT-LLM version: (${RELEASE})`) },
  // ollama server/routes.go: slog.Info(fmt.Sprintf("Listening on %s (version %s)", ln.Addr(), version.Version))
  { engine: 'ollama', pattern: new RegExp(String.raw`Listening on \S+ \(version (${RELEASE})\)`) },
  // llama.cpp common/common.cpp: LOG_INF("build: %d (%s) with %s for %s", ...); older: "main: build = 1179 (9217721)"
  { engine: 'llamacpp', pattern: /^(?:main: )?build(?: =|:) (\d+ \([0-9a-f]+\))/ },
];

/** Asked of every line read: its words looked for first, with the other lists' (any-of.ts). */
const mayNameVersion = anyOf([/version|build|engine \(v/]);

/** The version this line says its engine is, if it says one. */
export function readEngineVersion(text: string): { engine: Engine; version: string } | null {
  if (!mayNameVersion(text)) return null;
  for (const { engine, pattern } of ENGINE_VERSION_LINES) {
    const version = pattern.exec(text)?.[1];
    if (version !== undefined) return { engine, version };
  }
  return null;
}
