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

/**
 * "Bearer tokens are required", "Bearer authentication/authorization" are prose: lower-case words. Anything
 * else after `Bearer` (a digit, mixed case, a symbol) is a credential, however short.
 */
function looksLikeBearerToken(token: string): boolean {
  return !/^[A-Za-z][a-z]*(?:[-/][a-z]+)*$/.test(token) || token.length >= 40;
}

// Families from gitleaks' rule set (the facts: prefixes, alphabets, lengths), each anchored on its prefix.
const GITLAB_TOKEN =
  /(?<![A-Za-z0-9_-])(gl(?:pat|dt|rt|ptt|oas|cbt|imt|agent|soat|ft)-)[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_-]+)*/g;
const SLACK_TOKEN = /(?<![A-Za-z0-9])(xox[abposre]-)[A-Za-z0-9-]{10,}/g;
const SLACK_WEBHOOK = /(hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9/_+-]{20,}/g;
const STRIPE_KEY = /(?<![A-Za-z0-9])((?:sk|rk)_(?:test|live|prod)_)[A-Za-z0-9]{10,99}/g;
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;
const GCP_API_KEY = /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g;
const AZURE_ACCOUNT_KEY = /((?:AccountKey|SharedAccessKey)=)[A-Za-z0-9+/%]{20,}={0,2}/g;
const AZURE_CLIENT_SECRET =
  /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g;
const NGC_KEY = /(?<![A-Za-z0-9_-])nvapi-[A-Za-z0-9_-]{20,}/g;
const NPM_TOKEN = /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36,}/g;
// A PyPI API token is a macaroon whose first bytes always encode `pypi.org`: `pypi-AgEIcHlwaS5vcmc...`.
const PYPI_TOKEN = /(?<![A-Za-z0-9_-])pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{20,}/g;
const GROQ_KEY = /(?<![A-Za-z0-9_])gsk_[A-Za-z0-9]{40,}/g;
// A credential in a URL's query: `?token=`, `&access_token=`, `&X-Amz-Signature=`, `&sig=` (Azure SAS).
const QUERY_SECRET =
  /([?&](?:token|access_token|refresh_token|id_token|auth|auth_token|key|api_key|apikey|api-key|password|secret|client_secret|sig|signature|x-amz-signature|x-amz-security-token|x-amz-credential)=)[^\s&#'"<>`]+/gi;
// A line that mentions W&B: its 40-hex-digit API key has no prefix of its own.
const WANDB_LINE = /^.*wandb.*$/gim;
const HEX_40 = /(?<![0-9a-fA-F])[0-9a-f]{40}(?![0-9a-fA-F])/g;
// An AWS secret access key printed without its name: 40 characters of base64, mixed case and digits.
// `key=` before it or `=` padding after it does not make it less of a key.
const BASE64_40 = /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/g;
// A PEM body line (64 characters of base64) on its own, as in a log line or a report's evidence.
const BASE64_64 = /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{64}(?![A-Za-z0-9/+=])/g;
const PEM_BEGIN = /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----/g;

/** Mixed case, digits, few slashes and no path shape: random, not a word, a hash or a path. */
function looksRandom(run: string): boolean {
  if (!/[a-z]/.test(run) || !/[A-Z]/.test(run) || !/[0-9]/.test(run)) return false;
  if (run.startsWith('/') || run.includes('//') || run.split('/').length > 4) return false;
  const counts = new Map<string, number>();
  for (const char of run) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) entropy -= (count / run.length) * Math.log2(count / run.length);
  return entropy >= 4;
}

/** Each private-key body, from its BEGIN line to its END line (or the end of the text). Linear: indexOf. */
function redactPemBodies(text: string): string {
  if (!text.includes('PRIVATE KEY-----')) return text;
  let out = '';
  let from = 0;
  PEM_BEGIN.lastIndex = 0;
  for (let begin = PEM_BEGIN.exec(text); begin !== null; begin = PEM_BEGIN.exec(text)) {
    const bodyStart = begin.index + begin[0].length;
    if (bodyStart <= from) continue;
    const end = text.indexOf('-----END ', bodyStart);
    out += `${text.slice(from, bodyStart)}${REDACTED}`;
    from = end === -1 ? text.length : end;
    PEM_BEGIN.lastIndex = from;
  }
  return out + text.slice(from);
}

/** A rule that runs only where its literal occurs: most text holds none of them. */
function when(literal: string, rule: Rewrite): Rewrite {
  return (text) => (text.includes(literal) ? rule(text) : text);
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
  redactPemBodies,
  when('gl', (text) => text.replace(GITLAB_TOKEN, `$1${REDACTED}`)),
  when('xox', (text) => text.replace(SLACK_TOKEN, `$1${REDACTED}`)),
  when('hooks.slack.com', (text) => text.replace(SLACK_WEBHOOK, `$1${REDACTED}`)),
  when('k_', (text) => text.replace(STRIPE_KEY, `$1${REDACTED}`)),
  when('eyJ', (text) => text.replace(JWT, REDACTED)),
  when('AIza', (text) => text.replace(GCP_API_KEY, `AIza${REDACTED}`)),
  when('Key=', (text) => text.replace(AZURE_ACCOUNT_KEY, `$1${REDACTED}`)),
  when('Q~', (text) => text.replace(AZURE_CLIENT_SECRET, REDACTED)),
  when('nvapi-', (text) => text.replace(NGC_KEY, `nvapi-${REDACTED}`)),
  when('npm_', (text) => text.replace(NPM_TOKEN, `npm_${REDACTED}`)),
  when('pypi-', (text) => text.replace(PYPI_TOKEN, `pypi-${REDACTED}`)),
  when('gsk_', (text) => text.replace(GROQ_KEY, `gsk_${REDACTED}`)),
  when('=', (text) => text.replace(QUERY_SECRET, `$1${REDACTED}`)),
  (text) => (/wandb/i.test(text) ? text.replace(WANDB_LINE, (line) => line.replace(HEX_40, REDACTED)) : text),
  (text) => text.replace(BASE64_64, (run: string) => (looksRandom(run) ? REDACTED : run)),
  (text) => text.replace(BASE64_40, (run: string) => (looksRandom(run) ? REDACTED : run)),
];
