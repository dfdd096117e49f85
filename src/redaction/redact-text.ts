import { redactAssignments } from './assignment-rules.js';
import { redactClientPasswords } from './client-password-rules.js';
import { redactBase64, redactPercentEncoded } from './encoded-rules.js';
import { redactCutTokens, redactDanglingToken } from './split-tokens.js';
import { tokenRules } from './token-rules.js';

/**
 * The rules on text as it stands. Assignments go first so that `HF_TOKEN=hf_abc...` becomes
 * `HF_TOKEN=[REDACTED]`, not a value cut at `[`.
 */
function redactPlain(text: string): string {
  let out = redactClientPasswords(redactAssignments(text));
  for (const rule of tokenRules) out = rule(out);
  return out;
}

/** Looks through the forms that hide a secret from the plain rules, then runs them. */
function redactLine(text: string): string {
  return redactPlain(redactBase64(redactPercentEncoded(text, redactPlain), redactPlain));
}

/**
 * Replaces secrets in log text with `[REDACTED]`, keeping what kind they were: `hf_[REDACTED]`,
 * `sk-[REDACTED]`, `AKIA[REDACTED]`, `Bearer [REDACTED]`, `HF_TOKEN=[REDACTED]`, `--api-key [REDACTED]`,
 * `https://user:[REDACTED]@host`; also a token cut by a line break, percent-encoded or inside base64.
 * Never throws, is idempotent, and runs in time linear in the text.
 */
export function redactText(text: string): string {
  if (!text.includes('\n')) return redactLine(redactDanglingToken(text, redactPlain));
  return redactLine(redactCutTokens(text.split('\n'), redactPlain).join('\n'));
}

/** Lines in order (a log's, a report's evidence), redacted as the text they form: a cut token is seen. */
export function redactLines(lines: readonly string[]): string[] {
  return redactCutTokens(lines, redactPlain).map(redactLine);
}
