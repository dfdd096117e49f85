import { maskVariable } from '../diagnosis/fingerprint.js';
import type {
  FleetGroup,
  FleetInput,
  FleetMember,
  FleetReport,
  GroupFix,
  MemberCause,
  PodState,
} from './types.js';

/**
 * A rank that waits on another fails with these when the other dies first: they say "a peer went away",
 * not why. NCCL's watchdog, gloo's closed socket, torch's c10d store, Ray's dead worker or actor.
 */
const PEER_FAILURES = [
  /Watchdog caught collective operation timeout|ProcessGroupNCCL.{0,80}time(?:d )?out|NCCL.{0,40}timed? ?out/i,
  /Connection closed by peer|Connection reset by peer/i,
  /\bworker died\b|ActorDiedError|RayActorError|The actor died|worker .{0,40}died unexpectedly/i,
  /DistNetworkError|TCPStore.{0,60}(?:closed|reset)/i,
];

/** Kill reasons the kubelet or docker give for a container they ended from outside. */
const OUTSIDE_KILLS = new Set(['OOMKilled', 'Evicted', 'DeadlineExceeded', 'NodeLost', 'Preempting']);
/** Events that say why a pod never ran, or was killed by a probe. */
const CAUSE_EVENTS = [
  'FailedScheduling',
  'Failed',
  'ErrImagePull',
  'ImagePullBackOff',
  'FailedMount',
  'FailedCreatePodSandBox',
  'Unhealthy',
  'Evicted',
];

export function describeCause(input: FleetInput): MemberCause {
  const d = input.diagnosis;
  if (d?.verdict === 'failure' && d.rootCause !== null) {
    const exception = d.rootCause.exception === null ? '' : `${d.rootCause.exception}: `;
    const first = d.rootCause.message.split('\n', 1)[0] ?? '';
    const text = `${exception}${first}`;
    return {
      kind: 'log',
      key:
        d.signature === null
          ? `failure:${d.rootCause.exception ?? ''}|${maskVariable(first)}`
          : `signature:${d.signature.id}`,
      summary: d.signature === null ? text : `${d.signature.title} (${text.slice(0, 160)})`,
      signature: d.signature?.id ?? null,
      peer: PEER_FAILURES.some((pattern) => pattern.test(text)),
    };
  }
  const killed = outsideKill(input.state, input.events);
  if (killed !== null)
    return {
      kind: 'killed',
      key: `killed:${killed.reason}`,
      summary: killed.summary,
      signature: null,
      peer: false,
    };
  const event = input.events.find(
    (candidate) => candidate.type === 'Warning' && CAUSE_EVENTS.includes(candidate.reason),
  );
  if (event !== undefined) {
    return {
      kind: 'event',
      key: `event:${event.reason}|${maskVariable(event.message)}`,
      summary: `${event.reason}: ${event.message}`,
      signature: null,
      peer: false,
    };
  }
  if (input.error !== null)
    return { kind: 'unreadable', key: 'unreadable', summary: input.error, signature: null, peer: false };
  return { kind: 'none', key: 'none', summary: 'no failure found', signature: null, peer: false };
}

/** OOMKilled, eviction, a liveness probe: the runtime's word when the log has no traceback. */
function outsideKill(
  state: PodState | null,
  events: FleetInput['events'],
): { reason: string; summary: string } | null {
  const terminated = state?.terminated ?? null;
  const code = terminated?.exitCode ?? null;
  const exit = code === null ? '' : ` (exit ${code})`;
  if (terminated?.reason != null && OUTSIDE_KILLS.has(terminated.reason)) {
    const words =
      terminated.reason === 'OOMKilled'
        ? 'the kernel OOM killer ended it at its memory limit'
        : 'the cluster ended it';
    return {
      reason: terminated.reason,
      summary: `killed from outside: ${terminated.reason}${exit}; ${words}, with no traceback in its log`,
    };
  }
  if (state?.reason != null && OUTSIDE_KILLS.has(state.reason)) {
    return {
      reason: state.reason,
      summary: `killed from outside: pod ${state.reason}, with no traceback in its log`,
    };
  }
  const probe = events.find((event) => event.reason === 'Killing' && /probe/i.test(event.message));
  if (probe !== undefined) {
    const failed = events.find((event) => event.reason === 'Unhealthy');
    return {
      reason: 'probe',
      summary: `killed from outside by a failed probe${exit}: ${failed?.message ?? probe.message}`,
    };
  }
  return null;
}

/**
 * Groups the members by cause, biggest group first, and marks as `peer` the members that failed only
 * because another did: their cause is a peer's disappearance while some member has a cause of its own.
 */
export function groupFleet(target: string, inputs: readonly FleetInput[]): FleetReport {
  const members: FleetMember[] = inputs.map((input) => ({ ...input, cause: describeCause(input) }));
  const failing = (member: FleetMember): boolean =>
    member.cause.kind !== 'none' && member.cause.kind !== 'unreadable';
  const ownCause = members.some((member) => failing(member) && !member.cause.peer);
  const byKey = new Map<string, FleetGroup>();
  for (const member of members) {
    const peer = member.cause.peer && ownCause;
    if (!peer) member.cause = { ...member.cause, peer: false };
    let group = byKey.get(member.cause.key);
    if (group === undefined) {
      group = {
        key: member.cause.key,
        kind: member.cause.kind,
        summary: member.cause.summary,
        signature: member.cause.signature,
        role:
          member.cause.kind === 'none'
            ? 'healthy'
            : member.cause.kind === 'unreadable'
              ? 'unreadable'
              : peer
                ? 'peer'
                : 'own',
        members: [],
        waitingOn: [],
        fixes: [],
      };
      byKey.set(member.cause.key, group);
    }
    group.members.push(member.name);
  }
  const rank = (group: FleetGroup): number =>
    group.role === 'own' ? 0 : group.role === 'peer' ? 1 : group.role === 'unreadable' ? 2 : 3;
  const owners = members
    .filter((member) => failing(member) && !member.cause.peer)
    .map((member) => member.name);
  for (const group of byKey.values()) {
    if (group.role === 'peer') group.waitingOn = owners;
    if (group.role === 'own') group.fixes = fixesOf(members.filter((m) => m.cause.key === group.key));
  }
  // Failing groups by size (own before peer on a tie), then the unreadable, then the healthy.
  const tier = (group: FleetGroup): number => (rank(group) > 1 ? rank(group) : 0);
  const groups = [...byKey.values()].sort(
    (a, b) =>
      tier(a) - tier(b) ||
      b.members.length - a.members.length ||
      rank(a) - rank(b) ||
      a.key.localeCompare(b.key),
  );
  return {
    schemaVersion: 1,
    target,
    total: members.length,
    failed: members.filter(failing).length,
    groups,
    members,
  };
}

/** The members' fixes, each distinct command (and verify line) once, with the members it is for. */
function fixesOf(members: readonly FleetMember[]): GroupFix[] {
  const byCommand = new Map<string, GroupFix>();
  for (const member of members) {
    const signature = member.diagnosis?.signature;
    if (signature === undefined || signature === null) continue;
    const key = `${signature.fix}\n\0${signature.verify ?? ''}`;
    const known = byCommand.get(key);
    if (known !== undefined) known.members.push(member.name);
    else
      byCommand.set(key, {
        fix: signature.fix,
        ...(signature.verify === undefined ? {} : { verify: signature.verify }),
        members: [member.name],
      });
  }
  return [...byCommand.values()];
}
