/**
 * Secrets recognised by their own shape, wherever they appear.
 *
 * Every pattern is anchored on a literal prefix (or a lookbehind that allows one start per run), has no
 * nested or overlapping quantifiers, and so runs in time linear in the text.
 */

/** The replacement for a secret's value. Token kinds keep their prefix (`hf_[REDACTED]`) so a reader knows what it was. */
export const REDACTED = '[REDACTED]';

export type Rewrite = (text: string) => string;

const HF_TOKEN = /(?<![A-Za-z0-9])hf_[A-Za-z0-9]{30,}/g;
const GITHUB_TOKEN = /(?<![A-Za-z0-9_])(gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})/g;
const AWS_ACCESS_KEY_ID = /(?<![A-Za-z0-9])(AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g;
const OPENAI_KEY = /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}/g;
const LONG_ALNUM_RUN = /[A-Za-z0-9]{12,}/;

/** `sk-` also starts hyphenated names (`sk-learn-...`): a key has a digit and a long random run. */
function looksLikeOpenAiKey(match: string): boolean {
  const body = match.slice(3);
  return /[0-9]/.test(body) && LONG_ALNUM_RUN.test(body);
}

// `scheme://user:password@host`: the lookbehind lets a scheme start only at the beginning of its run.
const URL_PASSWORD = /(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s:/@'"]*:)[^\s@/'"]+@/g;

const AUTHORIZATION_HEADER =
  /(authorization["']?[ \t]*[:=][ \t]*["']?)(bearer|basic|token|digest|bot|negotiate)([ \t]+)[^\s"',;)}\][]+/gi;

const BEARER = /(?<![A-Za-z0-9_])(bearer)([ \t]+)([A-Za-z0-9\-._~+/]+=*)/gi;

/** "Bearer tokens are required" is prose; a credential is long and has a digit (or is very long). */
function looksLikeBearerToken(token: string): boolean {
  return (token.length >= 16 && /[0-9]/.test(token)) || token.length >= 40;
}

export const tokenRules: readonly Rewrite[] = [
  (text) => text.replace(HF_TOKEN, `hf_${REDACTED}`),
  (text) =>
    text.replace(
      GITHUB_TOKEN,
      (token: string) => `${token.startsWith('github_pat_') ? 'github_pat_' : token.slice(0, 4)}${REDACTED}`,
    ),
  (text) => text.replace(AWS_ACCESS_KEY_ID, `$1${REDACTED}`),
  (text) => text.replace(OPENAI_KEY, (key: string) => (looksLikeOpenAiKey(key) ? `sk-${REDACTED}` : key)),
  (text) => text.replace(URL_PASSWORD, `$1${REDACTED}@`),
  (text) => text.replace(AUTHORIZATION_HEADER, `$1$2$3${REDACTED}`),
  (text) =>
    text.replace(BEARER, (match: string, word: string, space: string, token: string) =>
      looksLikeBearerToken(token) ? `${word}${space}${REDACTED}` : match,
    ),
];
