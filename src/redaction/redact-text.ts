import { redactAssignments } from './assignment-rules.js';
import { tokenRules } from './token-rules.js';

/**
 * Replaces secrets in log text with `[REDACTED]`, keeping what kind they were: `hf_[REDACTED]`,
 * `sk-[REDACTED]`, `AKIA[REDACTED]`, `Bearer [REDACTED]`, `HF_TOKEN=[REDACTED]`, `--api-key [REDACTED]`,
 * `https://user:[REDACTED]@host`. Never throws, is idempotent, and runs in time linear in the text.
 *
 * Assignments go first so that `HF_TOKEN=hf_abc...` becomes `HF_TOKEN=[REDACTED]`, not a value cut at `[`.
 */
export function redactText(text: string): string {
  let out = redactAssignments(text);
  for (const rule of tokenRules) out = rule(out);
  return out;
}
