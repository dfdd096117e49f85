import type { Diagnosis } from '../types/diagnosis.js';
import type { FixEnvironment, FixPlace } from './fix-action.js';
import { overSsh } from './quote-shell.js';
import { rebuildLines } from './render-fix.js';
import { installArgs, renderImageInstall, renderLocalInstall } from './render-install.js';

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
  /** The prefix holds conda-meta: a conda environment. */
  conda?: boolean;
  /** The system Python's EXTERNALLY-MANAGED marker (PEP 668) is there. */
  externallyManaged?: boolean;
}

/** What the layer renders with: the environment's place in the traceback and what its files say. */
export function describeEnvironment(
  environment: CrashedEnvironment,
  facts: EnvironmentFacts,
): FixEnvironment {
  return {
    prefix: environment.prefix,
    python: environment.python,
    isVenv: environment.isVenv,
    installer: facts.installer,
    cudaTag: facts.cudaTag,
    conda: facts.conda === true || facts.installer === 'conda',
    externallyManaged: facts.externallyManaged === true,
  };
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

/** `pip install`, however the words said it: a plain, uv's or an interpreter's pip becomes the environment's. */
const PIP_INSTALL = /(?<![\w/.-])(?:uv |python3? -m )?pip install /g;
/** One shell word: quoted parts ('…', "…" with its escapes, \x) and bare characters, run together. */
const TOKEN = /^\s*((?:'[^']*'|"(?:[^"\\]|\\.)*"|\\.|[^\s,;'"\\])+)/;
/** Flags whose value is the next word. */
const WITH_VALUE =
  /^--(?:index-url|extra-index-url|find-links|constraint|requirement|target|prefix)$|^-[icrf]$/;

/**
 * The words of one `pip install` command: the first, then each that is a flag, a flag's value, quoted or
 * shaped like a requirement (==, >=, [extra], a URL), so prose after the command is left alone.
 */
function takeInstallArgs(text: string): { args: string[]; length: number } {
  let rest = text;
  const words: string[] = [];
  let wantsValue = true;
  let isFlagValue = false;
  let positional = false;
  for (;;) {
    const match = TOKEN.exec(rest);
    const word = match?.[1];
    if (match === null || word === undefined) break;
    const bare = word.replace(/[.)]+$/, '');
    const looksLikeArg = wantsValue || word.startsWith('-') || /^["']/.test(word) || /[=<>~[@/:]/.test(bare);
    if (!looksLikeArg) break;
    const quoted = /["'\\]/.test(word);
    // Unquoted here and quoted again when rendered: one word each, whatever it holds.
    words.push(quoted ? unquoteWord(word) : bare);
    // After a switch such as -U the first package still follows; after a package, prose may.
    positional ||= !word.startsWith('-') && !isFlagValue;
    isFlagValue = WITH_VALUE.test(word);
    wantsValue = isFlagValue || (word.startsWith('-') && !positional);
    // A sentence's full stop or closing parenthesis after the last word stays in the text.
    rest = rest.slice(match[0].length - (quoted ? 0 : word.length - bare.length));
    if (!quoted && word !== bare) break;
  }
  return { args: words, length: text.length - rest.length };
}

/** The value a shell reads from one word: quotes removed, escapes applied. */
function unquoteWord(word: string): string {
  return word.replace(
    /'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)/g,
    (_, single?: string, double?: string, escaped?: string) =>
      single ?? (double === undefined ? (escaped ?? '') : double.replace(/\\(["$`\\])/g, '$1')),
  );
}

/**
 * A fix written in words by a signature with no actions: each `pip install X` in it becomes the install for
 * the environment that crashed (uv's, conda's, a venv for a managed system Python, that interpreter's pip)
 * and the place (over ssh when remote), a package published off PyPI gets its index. In a container or pod
 * the install becomes the image's Dockerfile line and the words end with the rebuild. Null when the text
 * has no install to aim (or, on the host, the environment is unknown: the words stand).
 */
export function aimInstallText(
  text: string,
  environment: FixEnvironment | null,
  place: FixPlace,
): string | null {
  const remote = place.kind === 'container' || place.kind === 'pod' ? place : null;
  // On this machine with the environment unknown the words stand; on another host they still go over ssh.
  if (place.kind === 'local' && environment === null) return null;
  let out = '';
  let last = 0;
  for (const match of text.matchAll(PIP_INSTALL)) {
    const start = match.index + match[0].length;
    const { args, length } = takeInstallArgs(text.slice(start));
    if (args.length === 0) continue;
    const full = installArgs(args, [], environment?.cudaTag ?? null);
    out += text.slice(last, match.index) + aimOne(full, environment, place);
    last = start + length;
  }
  if (last === 0) return null;
  const rest = out + text.slice(last);
  if (remote === null) return rest;
  const then = rebuildLines(remote).map((line) => line.replace(/^# ?/, ''));
  return `${rest}\nIn a ${remote.kind}, the install belongs in the image: put the RUN line in its Dockerfile, then ${then.join('; ')}`;
}

function aimOne(args: readonly string[], environment: FixEnvironment | null, place: FixPlace): string {
  if (place.kind === 'container' || place.kind === 'pod') return renderImageInstall(args, environment);
  const commands = renderLocalInstall(args, environment);
  const command = commands.filter((line) => !line.startsWith('#')).join(' && ');
  return place.kind === 'ssh' ? overSsh(place.host, command) : command;
}
