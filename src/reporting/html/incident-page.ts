import type { Finding } from '../../checks/index.js';
import type { StartTimeline } from '../../timeline/build-timeline.js';
import type { Diagnosis } from '../../types/diagnosis.js';

/** One diagnosed log on the page: a file, a unit's journal, a pod. */
export interface PageReport {
  /** What was read (a file name, a pod); null when the page holds one log only. */
  label: string | null;
  /** Null when no log could be read or none was kept (a pod killed before it logged). */
  diagnosis: Diagnosis | null;
  timeline: StartTimeline | null;
  /** What became of it when that is more than its log says: "killed from outside: OOMKilled (exit 137)". */
  outcome?: { failed: boolean; summary: string };
  /** Its fix is given once for its cause group, on the page's summary (a fleet): the group fix's index. */
  groupFix?: number;
}

/** Logs that died of the same root cause, for a page about several logs. */
export interface PageGroup {
  cause: string;
  members: string[];
  /** Each distinct fix of the group once, with the members it is for (fleet/types.ts GroupFix). */
  fixes?: { fix: string; verify?: string; members: string[] }[];
}

/** Everything an incident page shows. Built at the edges; rendering it is pure. */
export interface IncidentPage {
  /** What the logs are, for a page about several: "pods app=vllm in llm". */
  target?: string;
  reports: PageReport[];
  /** Root-cause groups across the reports, biggest first; empty for one log. */
  groups: PageGroup[];
  /** The pre-flight findings, when `check` ran before the start. */
  findings: Finding[] | null;
  vigilVersion: string;
  /** Whether secrets were redacted from the reports (the page says which). */
  redacted: boolean;
  /** When the page was written, as the caller's clock gave it. */
  generatedAt: string | null;
}
