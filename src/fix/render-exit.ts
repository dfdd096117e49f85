import type { ExitRecord, FixAction, FixPlace, FixTarget, RenderedFix } from './fix-action.js';
import { joinArgs, overSsh } from './quote-shell.js';
import { namespaceArgs } from './render-install.js';

/** The kernel's words for the OOM killer and for what it killed, filtered here, where the output comes back. */
const OOM_FILTER = ' | grep -i -e oom -e killed';
/** The kernel's line for a crash names the library it happened in (`segfault at 0 ip … in libfoo.so`). */
const CRASH_FILTER = ' | grep -i -e segfault -e traps: -e general.protection';
/** The instruction sets a CPU build needs; an illegal instruction is one of them missing. */
const CPU_FILTER = ' | grep -o -w -e avx -e avx2 -e avx512f -e fma -e f16c | sort -u';

/**
 * Where a death with no cause in the log is recorded, as commands for the place: the supervisor's record
 * of the exit (systemd's result, the container's state, the pod's last state), then the records `look`
 * names. Output is filtered on this side, so no pipe runs inside a quoted remote command.
 */
export function renderInspectExit(
  action: Extract<FixAction, { kind: 'inspect-exit' }>,
  target: FixTarget,
): RenderedFix {
  const look = new Set<ExitRecord>(action.look ?? []);
  const place = target.place;
  const lines = [...supervisorRecord(place, target.unit ?? null, look.has('oom-killer'))];
  if (look.has('oom-killer')) lines.push(...onMachine(['journalctl', '-k', '--no-pager'], OOM_FILTER, place));
  if (look.has('core-dump')) {
    lines.push(...onMachine(['journalctl', '-k', '--no-pager'], CRASH_FILTER, place));
    lines.push(...onMachine(['coredumpctl', 'list', '--no-pager'], '', place));
  }
  if (look.has('cpu-flags')) lines.push(...cpuFlags(place));
  return { lines };
}

/**
 * What the supervisor saw: how the process ended, by its own account. Who may have killed it is named only
 * for a death by a signal (`killed`): an exit with an error status guesses no killer.
 */
function supervisorRecord(place: FixPlace, unit: string | null, killed: boolean): string[] {
  switch (place.kind) {
    case 'local':
    case 'ssh': {
      const shows = killed ? 'Result: oom-kill, timeout or signal' : 'its Result and last lines';
      if (unit === null) return [`# under systemd: systemctl status UNIT shows ${shows}`];
      return onMachine(['systemctl', 'status', unit, '--no-pager'], '', place);
    }
    case 'container':
      return onMachine(
        [
          place.runtime,
          'inspect',
          '-f',
          '{{.State.OOMKilled}} {{.State.ExitCode}} {{.State.Error}}',
          place.name,
        ],
        '',
        place,
      );
    case 'pod':
      return [
        ...onMachine(['kubectl', 'describe', 'pod', place.name, ...namespaceArgs(place)], '', place),
        `# Last State: Terminated, its Reason${killed ? ' (OOMKilled, Error)' : ''} and Exit Code; the Events below it`,
      ];
  }
}

/**
 * A command of the machine the server runs on. A pod's node is not reached from here: the command is said
 * for the node, in words.
 */
function onMachine(args: readonly string[], filter: string, place: FixPlace): string[] {
  const command = joinArgs(args);
  if (place.kind === 'pod' && !/^kubectl /.test(command)) return [`# on the pod's node: ${command}${filter}`];
  const host = place.kind === 'local' ? undefined : place.host;
  return [`${host === undefined ? command : overSsh(host, command)}${filter}`];
}

/** The CPU's instruction sets, as the server's own machine reports them. */
function cpuFlags(place: FixPlace): string[] {
  if (place.kind === 'pod') {
    const read = joinArgs([
      'kubectl',
      'exec',
      place.name,
      ...namespaceArgs(place),
      '--',
      'cat',
      '/proc/cpuinfo',
    ]);
    const host = place.host;
    return [`${host === undefined ? read : overSsh(host, read)}${CPU_FILTER}`];
  }
  return onMachine(['cat', '/proc/cpuinfo'], CPU_FILTER, place);
}
