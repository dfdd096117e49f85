import { describeSetting, ENGINE_SETTINGS } from './engine-options.js';
import type { FixAction, FixPlace, FixTarget, RenderedFix } from './fix-action.js';
import { joinArgs, overSsh, quoteArg } from './quote-shell.js';
import {
  installArgs,
  namespaceArgs,
  renderExecInstall,
  renderImageInstall,
  renderLocalInstall,
} from './render-install.js';

type Remote = Extract<FixPlace, { kind: 'container' | 'pod' }>;

const NUMBER = /^\d+(?:\.\d+)?$/;
const UNFILLED = /\{[A-Za-z_$][\w$]*\}/;

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
  }
}

function renderInstall(
  action: Extract<FixAction, { kind: 'install' }>,
  target: FixTarget,
): RenderedFix | null {
  if (action.requirements.length === 0) return null;
  const { place, environment } = target;
  // A log's "pip install a b" names several packages in one capture: each is its own argument.
  const requirements = action.requirements.flatMap((r) =>
    /^[\w.-]+(?:\s+[\w.-]+)+$/.test(r) ? r.split(/\s+/) : [r],
  );
  const args = installArgs(requirements, action.options ?? [], environment?.cudaTag ?? null);
  if (place.kind === 'local' || place.kind === 'ssh') {
    return { lines: onHost(renderLocalInstall(args, environment), place) };
  }
  // The package lives in the image: a change inside the container is lost at its next start.
  return {
    lines: ['# in the image (Dockerfile):', renderImageInstall(args, environment), ...rebuild(place)],
    tryNow: onHost([renderExecInstall(args, place, environment)], place)[0] ?? '',
  };
}

/** Rebuild and restart where the container or pod comes from: compose, the pod's owner, else in words. */
function rebuild(place: Remote): string[] {
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
  const workload = `${owner.kind.toLowerCase()}/${owner.name}`;
  return onHost([joinArgs(['kubectl', 'rollout', 'restart', workload, ...namespaceArgs(place)])], place);
}

function renderEngineOption(
  action: Extract<FixAction, { kind: 'engine-option' }>,
  target: FixTarget,
): RenderedFix | null {
  if (action.value !== undefined && !NUMBER.test(action.value)) return null;
  const engine = target.engine ?? 'vllm';
  const setting = ENGINE_SETTINGS[engine][action.option];
  if (setting === null) return { lines: [`# ${engine} has no ${action.option} option`] };
  const words = describeSetting(setting, action.value).map(quoteArg).join(' ');
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
          ...(place.compose === undefined ? ['# then recreate the container'] : rebuild(place)),
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

function renderFreePort(
  action: Extract<FixAction, { kind: 'free-port' }>,
  target: FixTarget,
): RenderedFix | null {
  if (!/^\d{1,5}$/.test(action.port)) return null;
  const find = joinArgs(['ss', '-ltnp', `sport = :${action.port}`]);
  const stop = action.pid !== undefined && /^\d+$/.test(action.pid) ? [joinArgs(['kill', action.pid])] : [];
  const setting = ENGINE_SETTINGS[target.engine ?? 'vllm'].port;
  const other =
    setting === null ? 'another port' : `another port (${describeSetting(setting, 'PORT').join(' ')})`;
  const then = stop.length > 0 ? [] : [`# then stop the process it names, or serve on ${other}`];
  return { lines: [...onHost([find, ...stop], target.place), ...then] };
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
    const workload = `${place.owner.kind.toLowerCase()}/${place.owner.name}`;
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
