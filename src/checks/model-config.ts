/** Reading Hugging Face config.json fields the way vLLM does (python-env-facts §5). Pure. */

type Config = Readonly<Record<string, unknown>>;

/** Multimodal configs keep the language model's fields in a sub-config. */
export function findTextConfig(config: Config): Config {
  for (const key of ['text_config', 'llm_config', 'language_config']) {
    const sub = config[key];
    if (typeof sub === 'object' && sub !== null && !Array.isArray(sub)) return sub as Config;
  }
  return config;
}

/** The first of `keys` holding a positive number, with its key. */
export function findNumber(config: Config, keys: readonly string[]): { key: string; value: number } | null {
  for (const key of keys) {
    const value = config[key];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) return { key, value };
  }
  return null;
}

export const ATTENTION_HEAD_KEYS = ['num_attention_heads', 'n_head', 'num_heads', 'n_heads'];
// vLLM's get_total_num_kv_heads order; without any of these it uses the attention heads.
export const KV_HEAD_KEYS = ['n_head_kv', 'num_kv_heads', 'num_key_value_heads', 'multi_query_group_num'];

const LENGTH_KEYS = [
  'max_position_embeddings',
  'n_positions',
  'max_seq_len',
  'seq_length',
  'model_max_length',
  'max_target_positions',
  'max_sequence_length',
  'max_seq_length',
  'seq_len',
];

/** vLLM's derived max_model_len: the smallest length key, capped by the tokenizer, scaled by RoPE. */
export function deriveMaxModelLen(
  config: Config,
  tokenizerMaxLength: number | null,
): { value: number; key: string; scaled: boolean } {
  const text = findTextConfig(config);
  let best: { key: string; value: number } | null = null;
  for (const key of LENGTH_KEYS) {
    const found = findNumber(text, [key]);
    if (found !== null && (best === null || found.value < best.value)) best = found;
  }
  let value = best?.value ?? 2048;
  const key = best?.key ?? 'default';
  if (tokenizerMaxLength !== null && tokenizerMaxLength < value) value = tokenizerMaxLength;
  const rope = text.rope_scaling ?? text.rope_parameters;
  if (typeof rope !== 'object' || rope === null) return { value, key, scaled: false };
  const scaling = rope as Config;
  const factor = typeof scaling.factor === 'number' ? scaling.factor : null;
  const rawType = scaling.rope_type ?? scaling.type;
  const type = typeof rawType === 'string' ? rawType : '';
  const modelType = typeof text.model_type === 'string' ? text.model_type : '';
  // These rope types already state the extended length in max_position_embeddings.
  if (factor === null || ['su', 'longrope', 'llama3'].includes(type) || modelType.includes('gemma3')) {
    return { value, key, scaled: false };
  }
  if (type === 'yarn' && typeof scaling.original_max_position_embeddings === 'number') {
    return { value: scaling.original_max_position_embeddings * factor, key, scaled: true };
  }
  return { value: value * factor, key, scaled: true };
}
