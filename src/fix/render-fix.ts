import { ENGINES, type Engine } from '../types/diagnosis.js';
import { describeSetting, ENGINE_SETTINGS, OPTION_WORDS } from './engine-options.js';
import type { EngineOption, FixAction, FixPlace, FixTarget, RenderedFix } from './fix-action.js';
import { joinArgs, overSsh, quoteArg } from './quote-shell.js';
import { renderInspectExit } from './render-exit.js';
import {
  installArgs,
  namespaceArgs,
  renderExecInstall,
  renderImageInstall,
  renderLocalInstall,
} from './render-install.js';

/** The Python package each engine is installed as; null where it is not one (an image or a binary). */
const ENGINE_PACKAGES: Record<Engine, string | null> = {
  vllm: 'vllm',
  sglang: 'sglang',
  lmdeploy: 'lmdeploy',
  trtllm: 'tensorrt_llm',
  tgi: null,
  llamacpp: null,
  ollama: null,
};
const ENGINE_NAMES: Record<Engine, string> = {
  vllm: 'vLLM',
  sglang: 'SGLang',
  lmdeploy: 'LMDeploy',
  trtllm: 'TensorRT-LLM',
  tgi: 'TGI',
  llamacpp: 'llama.cpp',
  ollama: 'Ollama',
};

type Remote = Extract<FixPlace, { kind: 'container' | 'pod' }>;

/** An option's value: a number or one plain word (float16); anything else stays the signature's words. */
const OPTION_VALUE = /^[\w.]+$/;
const NUMBER = /^\d+(?:\.\d+)?$/;
/** An environment variable's value: a word, a path or a list; quoted where it is a command's argument. */
const VARIABLE_VALUE = /^[\w./:,+-]+$/;
const ENVIRONMENT_NAME = /^[A-Z_][A-Z0-9_]*$/;
const UNFILLED = /\{[A-Za-z_$][\w$]*\}/;
const UNFILLED_IN_LIST = /(?<!\$)\{[A-Za-z_][\w]*\}/;

/**
 * The fix's actions written for the place, environment and engine: commands quoted for the shell they are
 * printed for, a step in words where the change is a server option. Null when none of the actions can be
 * written (a capture the log did not give), so the signature's words stand.
 */
export function renderFix(actions: readonly FixAction[], target: FixTarget): RenderedFix | null {
  const lines: string[] = [];
  let tryNow: string | undefined;
  for (const action of actions) {
    const rendered = renderAction(action, target);
    if (rendered === null) continue;
    lines.push(...rendered.lines);
    tryNow ??= rendered.tryNow;
  }
  if (lines.length === 0) return null;
  const verify = renderVerify(actions, target);
  return {
    lines: [...new Set(lines)],
    ...(tryNow === undefined ? {} : { tryNow }),
    ...(verify === null ? {} : { verify }),
  };
}

function renderAction(action: FixAction, target: FixTarget): RenderedFix | null {
  if (Object.values(action).some((value) => typeof value === 'string' && UNFILLED.test(value))) return null;
  // In a list (argv, packages) a `${NAME}` is the log's shell text, not a capture left unfilled.
  const lists = Object.values(action).filter((value): value is unknown[] => Array.isArray(value));
  if (lists.flat().some((v) => typeof v === 'string' && UNFILLED_IN_LIST.test(v))) return null;
  switch (action.kind) {
    case 'install':
      return renderInstall(action, target);
    case 'engine-option':
      return renderEngineOption(action, target);
    case 'stop-process':
      return /^\d+$/.test(action.pid)
        ? { lines: onHost([joinArgs(['kill', action.pid])], target.place) }
        : null;
    case 'free-port':
      return renderFreePort(action, target);
    case 'environment-variable':
      return renderEnvironmentVariable(action, target);
    case 'shared-memory':
      return renderSharedMemory(action, target);
    case 'step':
      return { lines: [action.text] };
    case 'inspect-packages':
      return renderInspectPackages(action, target);
    case 'command':
      return renderCommand(action, target.place);
    case 'system-package':
      return renderSystemPackages(action, target.place);
    case 'inspect-exit':
      return renderInspectExit(action, target);
  }
}

function renderInstall(
  action: Extract<FixAction, { kind: 'install' }>,
  target: FixTarget,
): RenderedFix | null {
  const { place, environment, engine } = target;
  // The engine is not known: which package (or image) to upgrade is the operator's to say, never vllm's.
  if (action.engine === true && engine === null) {
    const rest = renderInstall({ ...action, engine: undefined }, target);
    const words = `upgrade the engine to a newer release (its package: ${Object.values(ENGINE_PACKAGES)
      .filter((name) => name !== null)
      .join(', ')}; or its image or binary)`;
    return rest === null ? { lines: [words] } : { ...rest, lines: [words, ...rest.lines] };
  }
  const enginePackage = action.engine === true && engine !== null ? ENGINE_PACKAGES[engine] : undefined;
  // An engine that is no Python package (TGI, llama.cpp, Ollama): a newer release of its image or binary.
  if (enginePackage === null && engine !== null)
    return { lines: [`upgrade ${ENGINE_NAMES[engine]} to a newer release (its image or binary)`] };
  // A log's "pip install a b" names several packages in one capture: each is its own argument.
  const requirements = [
    ...(enginePackage === undefined || enginePackage === null ? [] : [enginePackage]),
    ...action.requirements,
  ].flatMap((r) => (/^[\w.-]+(?:\s+[\w.-]+)+$/.test(r) ? r.split(/\s+/) : [r]));
  if (requirements.length === 0) return null;
  const args = [
    ...installArgs(
      requirements,
      action.options ?? [],
      action.index === undefined ? (environment?.cudaTag ?? null) : null,
    ),
    ...(action.index === undefined ? [] : ['--index-url', action.index]),
  ];
  if (place.kind === 'local' || place.kind === 'ssh') {
    return { lines: onHost(renderLocalInstall(args, environment), place) };
  }
  // The package lives in the image: a change inside the container is lost at its next start.
  return {
    lines: ['# in the image (Dockerfile):', renderImageInstall(args, environment), ...rebuildLines(place)],
    tryNow: onHost([renderExecInstall(args, place, environment)], place)[0] ?? '',
  };
}

/** Rebuild and restart where the container or pod comes from: compose, the pod's owner, else in words. */
export function rebuildLines(place: Remote): string[] {
  if (place.kind === 'container') {
    if (place.compose === undefined) return ['# then rebuild the image and recreate the container from it'];
    const command = joinArgs([
      place.runtime,
      'compose',
      '-p',
      place.compose.project,
      'up',
      '-d',
      '--build',
      place.compose.service,
    ]);
    return onHost([command], place);
  }
  return [
    '# then push the image, point the workload at it, and restart the pod’s owner:',
    ...restartOwner(place),
  ];
}

function restartOwner(place: Extract<FixPlace, { kind: 'pod' }>): string[] {
  const owner = place.owner;
  if (owner === undefined)
    return ['# (the owner is in: kubectl get pod POD -o jsonpath={.metadata.ownerReferences})'];
  const workload = workloadOf(owner);
  return onHost([joinArgs(['kubectl', 'rollout', 'restart', workload, ...namespaceArgs(place)])], place);
}

function renderEngineOption(
  action: Extract<FixAction, { kind: 'engine-option' }>,
  target: FixTarget,
): RenderedFix | null {
  const value = optionValue(action);
  if (value === null) return null;
  const engine = target.engine;
  if (engine === null) return renderAnyEngineOption(action.option, value, target.place);
  const setting = ENGINE_SETTINGS[engine][action.option];
  // The engine has no such option: the fix's other steps stand, never another engine's flag.
  if (setting === null) return null;
  const words = describeSetting(setting, value).map(quoteArg).join(' ');
  const where = 'env' in setting ? "in the server's environment" : "on the server's command line";
  const place = target.place;
  switch (place.kind) {
    case 'local':
    case 'ssh':
      return { lines: [`restart the server with ${words} (${where})`] };
    case 'container':
      return {
        lines: [
          `set ${words} ${where === "in the server's environment" ? "in the container's environment" : "in the container's command"}`,
          ...(place.compose === undefined ? ['# then recreate the container'] : rebuildLines(place)),
        ],
      };
    case 'pod':
      return {
        lines: [
          `set ${words} in the pod template's ${'env' in setting ? 'env' : 'args'}`,
          ...restartOwner(place),
        ],
      };
  }
}

/**
 * The option for a server whose engine the log does not show: what it sets in words, then each engine's own
 * name for it, so no one engine's flag reads as the fix for all.
 */
function renderAnyEngineOption(
  option: EngineOption,
  value: string | undefined,
  place: FixPlace,
): RenderedFix | null {
  const names = ENGINES.flatMap((engine) => {
    const setting = ENGINE_SETTINGS[engine][option];
    return setting === null ? [] : [`${ENGINE_NAMES[engine]} ${describeSetting(setting, value).join(' ')}`];
  });
  if (names.length === 0) return null;
  const what = value === undefined ? OPTION_WORDS[option] : `${OPTION_WORDS[option]} set to ${value}`;
  const each = `(${names.join(', ')})`;
  switch (place.kind) {
    case 'local':
    case 'ssh':
      return { lines: [`restart the server with ${what} ${each}`] };
    case 'container':
      return {
        lines: [
          `set ${what} in the container's command or environment ${each}`,
          ...(place.compose === undefined ? ['# then recreate the container'] : rebuildLines(place)),
        ],
      };
    case 'pod':
      return {
        lines: [`set ${what} in the pod template's args or env ${each}`, ...restartOwner(place)],
      };
  }
}

function renderFreePort(
  action: Extract<FixAction, { kind: 'free-port' }>,
  target: FixTarget,
): RenderedFix | null {
  if (!/^\d{1,5}$/.test(action.port)) return null;
  const find = joinArgs(['ss', '-ltnp', `sport = :${action.port}`]);
  const stop = action.pid !== undefined && /^\d+$/.test(action.pid) ? [joinArgs(['kill', action.pid])] : [];
  const setting = target.engine === null ? null : ENGINE_SETTINGS[target.engine].port;
  const other =
    setting === null
      ? "another port (the server's port option)"
      : `another port (${describeSetting(setting, 'PORT').join(' ')})`;
  const then = stop.length > 0 ? [] : [`# then stop the process it names, or serve on ${other}`];
  return { lines: [...onHost([find, ...stop], target.place), ...then] };
}

/** The option's value: as given, the largest divisor below it, or a share of memory; null when unusable. */
function optionValue(action: Extract<FixAction, { kind: 'engine-option' }>): string | undefined | null {
  const { value, divides, share } = action;
  if (share !== undefined) {
    const part = Number(share.part);
    const whole = Number(share.whole);
    if (!NUMBER.test(share.part) || !NUMBER.test(share.whole) || whole <= 0) return null;
    // Two points below the free share: what the CUDA context and other allocations take at start.
    const fraction = Math.floor((part / whole) * 100 - 2) / 100;
    return fraction >= 0.05 ? fraction.toFixed(2) : null;
  }
  if (value === undefined) return undefined;
  if (!OPTION_VALUE.test(value)) return null;
  if (divides === undefined) return value;
  if (!/^\d+$/.test(value) || !/^\d+$/.test(divides)) return null;
  // GPUs come in powers of two: the largest one below the size that failed that divides the heads.
  const heads = Number(divides);
  let size = 1;
  while (size * 2 < Number(value) && heads % (size * 2) === 0) size *= 2;
  return Number(value) > 1 ? String(size) : null;
}

function renderInspectPackages(
  action: Extract<FixAction, { kind: 'inspect-packages' }>,
  target: FixTarget,
): RenderedFix {
  const { place, environment } = target;
  const python = environment?.python ?? 'python3';
  const pip =
    environment?.installer === 'uv' && (place.kind === 'local' || place.kind === 'ssh')
      ? ['uv', 'pip', action.list === undefined ? 'check' : 'list', '--python', python]
      : [python, '-m', 'pip', action.list === undefined ? 'check' : 'list'];
  const inPlace =
    place.kind === 'container'
      ? [place.runtime, 'exec', place.name, ...pip]
      : place.kind === 'pod'
        ? ['kubectl', 'exec', place.name, ...namespaceArgs(place), '--', ...pip]
        : pip;
  const command = onHost([joinArgs(inPlace)], place)[0] ?? '';
  // The filter runs here, on what came back: no pipe inside the quoted remote command.
  const filter = action.list === undefined ? '' : ` | ${joinArgs(['grep', '-i', action.list])}`;
  return { lines: [`${command}${filter}`] };
}

function renderEnvironmentVariable(
  action: Extract<FixAction, { kind: 'environment-variable' }>,
  target: FixTarget,
): RenderedFix | null {
  if (!ENVIRONMENT_NAME.test(action.name) || !VARIABLE_VALUE.test(action.value)) return null;
  const only = action.engines;
  if (only !== undefined && target.engine !== null && !only.includes(target.engine)) return null;
  // An engine's own variable, the engine unknown: said whose it is.
  const whose =
    only === undefined || target.engine !== null ? '' : ` (${only.map((e) => ENGINE_NAMES[e]).join(', ')})`;
  const assignment = `${action.name}=${action.value}${whose}`;
  const place = target.place;
  switch (place.kind) {
    case 'local':
    case 'ssh':
      return { lines: [`restart the server with ${assignment} in its environment`] };
    case 'container':
      return {
        lines: [
          `set ${assignment} in the container's environment (compose: environment:, docker run: -e)`,
          ...(place.compose === undefined ? ['# then recreate the container'] : rebuildLines(place)),
        ],
      };
    case 'pod':
      return place.owner === undefined
        ? { lines: [`set ${assignment} in the pod template's env`, ...restartOwner(place)] }
        : {
            // kubectl set env changes the template, and so rolls the owner's pods itself.
            lines: onHost(
              [
                joinArgs([
                  'kubectl',
                  'set',
                  'env',
                  workloadOf(place.owner),
                  assignment,
                  ...namespaceArgs(place),
                ]),
              ],
              place,
            ),
          };
  }
}

function renderSharedMemory(
  action: Extract<FixAction, { kind: 'shared-memory' }>,
  target: FixTarget,
): RenderedFix | null {
  if (!/^\d+[kmgKMG]?$/.test(action.size)) return null;
  const place = target.place;
  switch (place.kind) {
    case 'local':
    case 'ssh':
      return { lines: onHost([joinArgs(['mount', '-o', `remount,size=${action.size}`, '/dev/shm'])], place) };
    case 'container':
      return {
        lines: [
          `run the container with --shm-size=${action.size} or --ipc=host (compose: shm_size: ${action.size})`,
          ...(place.compose === undefined ? ['# then recreate the container'] : rebuildLines(place)),
        ],
      };
    case 'pod':
      return {
        lines: [
          `mount an emptyDir with medium: Memory and sizeLimit: ${action.size} at /dev/shm in the pod template`,
          ...restartOwner(place),
        ],
      };
  }
}

/** A command where it belongs: in the server's environment (exec into a container or pod), or on its machine. */
function renderCommand(action: Extract<FixAction, { kind: 'command' }>, place: FixPlace): RenderedFix | null {
  if (action.argv.length === 0) return null;
  const command = joinArgs(action.argv);
  if (place.kind === 'local' || place.kind === 'ssh') return { lines: onHost([command], place) };
  if (action.where === 'host') {
    if (place.kind === 'container') return { lines: onHost([command], place) };
    return { lines: [`# on the pod's node (kubectl get pod ${place.name} -o wide names it):`, command] };
  }
  const inPlace =
    place.kind === 'container'
      ? [place.runtime, 'exec', place.name, ...action.argv]
      : ['kubectl', 'exec', place.name, ...namespaceArgs(place), '--', ...action.argv];
  return { lines: onHost([joinArgs(inPlace)], place) };
}

/** Debian packages: installed on the host, or in the image (a change inside a container is lost). */
function renderSystemPackages(
  action: Extract<FixAction, { kind: 'system-package' }>,
  place: FixPlace,
): RenderedFix | null {
  if (action.packages.length === 0) return null;
  const install = ['apt-get', 'install', '-y', ...action.packages];
  if (place.kind === 'local' || place.kind === 'ssh')
    return { lines: onHost([joinArgs(['sudo', ...install])], place) };
  const exec =
    place.kind === 'container'
      ? [place.runtime, 'exec', place.name, ...install]
      : ['kubectl', 'exec', place.name, ...namespaceArgs(place), '--', ...install];
  return {
    lines: [
      '# in the image (Dockerfile):',
      `RUN apt-get update && ${joinArgs([...install.slice(0, 3), '--no-install-recommends', ...action.packages])}`,
      ...rebuildLines(place),
    ],
    tryNow: onHost([joinArgs(exec)], place)[0] ?? '',
  };
}

function workloadOf(owner: { kind: string; name: string }): string {
  return `${owner.kind.toLowerCase()}/${owner.name}`;
}

/**
 * The commands run where the server's machine is: over ssh when it is remote. A container's or pod's own
 * commands (docker, kubectl) run where they were read from.
 */
function onHost(commands: readonly string[], place: FixPlace): string[] {
  const host = place.kind === 'local' ? undefined : place.kind === 'ssh' ? place.host : place.host;
  if (host === undefined) return [...commands];
  return commands.map((command) => (command.startsWith('#') ? command : overSsh(host, command)));
}

/** A check, run in the same place, that the change took: vigil check on the environment, or the rollout. */
function renderVerify(actions: readonly FixAction[], target: FixTarget): string | null {
  const { place, environment } = target;
  if (place.kind === 'container') {
    return joinArgs(['vigil', 'diagnose', `--${place.runtime}`, place.name, ...sshArgs(place.host)]);
  }
  if (place.kind === 'pod') {
    if (place.owner === undefined) return null;
    const workload = workloadOf(place.owner);
    return (
      onHost([joinArgs(['kubectl', 'rollout', 'status', workload, ...namespaceArgs(place)])], place)[0] ??
      null
    );
  }
  if (environment === null || !actions.some((action) => action.kind === 'install')) return null;
  const host = place.kind === 'ssh' ? place.host : undefined;
  const which = environment.isVenv ? ['--venv', environment.prefix] : ['--python', environment.python];
  return joinArgs(['vigil', 'check', ...which, ...sshArgs(host)]);
}

function sshArgs(host: string | undefined): string[] {
  return host === undefined ? [] : ['--ssh', host];
}
