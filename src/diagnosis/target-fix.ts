import type { Diagnosis, SignatureMatch } from '../types/diagnosis.js';

/** The Python environment a traceback ran in, from its frames' paths (…/lib/python3.12/site-packages/…). */
export interface CrashedEnvironment {
  /** /opt/vllm/.venv, or /usr/local for a system interpreter's dist-packages. */
  prefix: string;
  sitePackages: string;
  /** The interpreter to install with: /opt/vllm/.venv/bin/python. */
  python: string;
  /** A virtual environment (not the system's prefix): verified with --venv, else with --python. */
  isVenv: boolean;
}

/** What the environment's own files say, when it is on this machine (environment/read-crashed-environment.ts). */
export interface EnvironmentFacts {
  /** INSTALLER of the environment's distributions: 'uv', 'pip', 'conda'; null when unknown. */
  installer: string | null;
  /** torch.version.cuda as a wheel tag: 'cu129'; null when unknown or a CPU build. */
  cudaTag: string | null;
}

const SITE = /^(?<prefix>\/.*?)\/lib(?:64)?\/(?<python>python\d+\.\d+t?)\/(?<folder>site|dist)-packages\//;

/** The environment of the innermost frame that lives in a site-packages folder, or null. */
export function findCrashedEnvironment(diagnosis: Diagnosis): CrashedEnvironment | null {
  const root = diagnosis.rootCause;
  for (const site of [root?.raiseSite, root?.crashSite]) {
    const match = site === null || site === undefined ? null : SITE.exec(site.file);
    if (match?.groups === undefined) continue;
    const { prefix = '', python = 'python3', folder = 'site' } = match.groups;
    const system = prefix === '/usr' || prefix === '/usr/local';
    return {
      prefix,
      sitePackages: `${prefix}/lib/${python}/${folder}-packages`,
      // Debian's pip-as-root writes /usr/local/lib/python3.X/dist-packages for /usr/bin/python3.X.
      python: system ? `/usr/bin/${python}` : `${prefix}/bin/python`,
      isVenv: !system,
    };
  }
  return null;
}

/** Where packages that are not (or no longer) on PyPI are published, by name. */
const PACKAGE_INDEXES: Record<string, (cudaTag: string | null) => string> = {
  'flashinfer-cubin': () => 'https://flashinfer.ai/whl',
  'flashinfer-jit-cache': (cudaTag) => `https://flashinfer.ai/whl/${cudaTag ?? 'cuXYZ'}`,
};

const PIP_INSTALL = /(?<![\w/.-])(?:python3? -m )?pip install /g;
const TOKEN = /^\s*("[^"]*"|'[^']*'|[^\s,;]+)/;
/** Flags whose value is the next word. */
const WITH_VALUE =
  /^--(?:index-url|extra-index-url|find-links|constraint|requirement|target|prefix)$|^-[icrf]$/;

/**
 * The words of one `pip install` command: the first, then each that is a flag, a flag's value, quoted or
 * shaped like a requirement (==, >=, [extra], a URL), so prose after the command is left alone.
 */
function takeInstallArgs(text: string): { args: string; length: number } {
  let rest = text;
  const words: string[] = [];
  let wantsValue = true;
  for (;;) {
    const match = TOKEN.exec(rest);
    const word = match?.[1];
    if (match === null || word === undefined) break;
    const bare = word.replace(/[.)]+$/, '');
    const looksLikeArg = wantsValue || word.startsWith('-') || /^["']/.test(word) || /[=<>~[@/:]/.test(bare);
    if (!looksLikeArg) break;
    const quoted = /^["']/.test(word);
    words.push(quoted ? word : bare);
    wantsValue = WITH_VALUE.test(word);
    // A sentence's full stop or closing parenthesis after the last word stays in the text.
    rest = rest.slice(match[0].length - (quoted ? 0 : word.length - bare.length));
    if (!quoted && word !== bare) break;
  }
  return { args: words.join(' '), length: text.length - rest.length };
}

/**
 * The signature's fix aimed at the environment that crashed: `pip install X` becomes that interpreter's
 * install (`uv pip install --python P X` when uv built it, else `P -m pip install X`), a package published
 * off PyPI gets its index (the CUDA tag from the environment), and `verify` says how to check that it worked.
 */
export function targetFix(
  signature: SignatureMatch,
  environment: CrashedEnvironment,
  facts: EnvironmentFacts,
): SignatureMatch {
  const aim = (text: string): string => {
    let out = '';
    let last = 0;
    for (const match of text.matchAll(PIP_INSTALL)) {
      const start = match.index + match[0].length;
      const { args, length } = takeInstallArgs(text.slice(start));
      if (args === '') continue;
      out += text.slice(last, match.index) + installCommand(args, environment, facts);
      last = start + length;
    }
    return out + text.slice(last);
  };
  const fix = aim(signature.fix);
  if (fix === signature.fix) return signature;
  const verify = environment.isVenv
    ? `vigil check --venv ${environment.prefix}`
    : `vigil check --python ${environment.python}`;
  return {
    ...signature,
    fix,
    verify,
    ...(signature.alternative === undefined ? {} : { alternative: aim(signature.alternative) }),
  };
}

function installCommand(args: string, environment: CrashedEnvironment, facts: EnvironmentFacts): string {
  const indexes = Object.entries(PACKAGE_INDEXES)
    .filter(([name]) => new RegExp(`(^|["'\\s])${name}(?![\\w-])`).test(args))
    .map(([, index]) => ` --extra-index-url ${index(facts.cudaTag)}`)
    .filter((index) => !args.includes(index.trim()));
  const command =
    facts.installer === 'uv'
      ? `uv pip install --python ${environment.python} ${args}`
      : `${environment.python} -m pip install ${args}`;
  return `${command}${[...new Set(indexes)].join('')}`;
}
