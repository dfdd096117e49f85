import type { Diagnosis } from '../types/diagnosis.js';

/** How Kubernetes last saw a pod's container: `kubectl get pods -o json`, status.containerStatuses. */
export interface PodState {
  phase: string | null;
  /** status.reason of the pod itself: Evicted, NodeLost. */
  reason: string | null;
  container: string | null;
  restartCount: number;
  ready: boolean;
  /** state.waiting.reason: CrashLoopBackOff, ImagePullBackOff. */
  waiting: string | null;
  /** lastState.terminated (or state.terminated): how the last run ended. */
  terminated: { reason: string | null; exitCode: number | null; message: string | null } | null;
}

/** One of the pod's events (`kubectl get events --field-selector involvedObject.name=POD -o json`). */
export interface PodEvent {
  type: string;
  reason: string;
  message: string;
  count: number;
}

/** What was read of one member of the fleet: a pod, a container or a host. */
export interface FleetInput {
  name: string;
  /** What was read, as the source describes it: "previous kubectl logs of llm/vllm-0". */
  source: string | null;
  diagnosis: Diagnosis | null;
  /** Why nothing could be read (one line), when nothing could. */
  error: string | null;
  state: PodState | null;
  events: PodEvent[];
  /** What was left out of the events or why they could not be read, in one line; absent when all came. */
  eventsNote?: string;
}

/**
 * Why a member failed. `log`: its own log names the cause; `killed`: the runtime killed it from outside
 * (OOMKilled, a probe, eviction) and the log holds no traceback; `event`: it never ran (scheduling,
 * image pull); `unreadable`; `none`: nothing failed.
 */
export interface MemberCause {
  kind: 'log' | 'killed' | 'event' | 'unreadable' | 'none';
  /** Members with the same key share the cause (the diagnosis's signature or failure fingerprint). */
  key: string;
  summary: string;
  signature: string | null;
  /** It failed because a peer did (NCCL timeout, gloo "Connection closed by peer", Ray "worker died"). */
  peer: boolean;
}

export interface FleetMember extends FleetInput {
  cause: MemberCause;
}

export interface FleetGroup {
  key: string;
  kind: MemberCause['kind'];
  summary: string;
  signature: string | null;
  /** `peer`: these died waiting for the members of an own-cause group. */
  role: 'own' | 'peer' | 'healthy' | 'unreadable';
  members: string[];
  /** For a peer group: the members whose own cause they waited on. */
  waitingOn: string[];
  /**
   * An own-cause group's fix, once per distinct command with the members it is for: one for a Deployment's
   * pods (they share their owner), one each for two compose services (each rebuilds its own).
   */
  fixes: GroupFix[];
}

/** One fix of a group and the members whose diagnosis gave that same command. */
export interface GroupFix {
  fix: string;
  verify?: string;
  members: string[];
}

/** A fleet's result: plain data, for the text, JSON, Markdown and HTML renderers. */
export interface FleetReport {
  schemaVersion: 1;
  /** What was read: "pods app=vllm in llm", "3 hosts". */
  target: string;
  total: number;
  failed: number;
  /** Biggest first; healthy and unreadable members last. */
  groups: FleetGroup[];
  members: FleetMember[];
}
