import type { RequirementEdge } from './requirement-edges.js';
import type { GpuReading } from '../environment/read-gpu.js';
import type { ModelFacts } from '../environment/read-model.js';
import type { PortProbe, SpaceReading } from '../environment/read-host.js';
import type { SharedObjectReading, TorchExports } from '../environment/read-shared-objects.js';
import type { Snapshot } from '../environment/snapshot.js';
import type { ServerFlags } from '../engines/server-flags.js';
import type { Distribution, PythonEnvironment } from '../environment/types.js';

export type Severity = 'error' | 'warning' | 'info';

/** One thing found wrong (or worth knowing), as reported and serialized. */
export interface Finding {
  id: string;
  severity: Severity;
  title: string;
  detail: string;
  /** A command or action that fixes it; null when there is nothing to run. */
  fix: string | null;
  packages: string[];
}

/** Everything a check may look at. Read at the edges; checks never touch files or processes. */
export interface CheckContext {
  environment: PythonEnvironment;
  /** The distribution Python imports for each normalized name (first on the search path). */
  installed: ReadonlyMap<string, Distribution>;
  /** Requirements of installed distributions that apply here, with the extras dependents ask for. */
  edges: readonly RequirementEdge[];
  /** null when the GPU was not inspected. */
  gpu: GpuReading | null;
  /** --gpu: a missing GPU is an error, not a note. */
  gpuRequired: boolean;
  /** --wait-gpu-free: how long the memory was waited for before `gpu` was read; null when not asked. */
  gpuWaitedMs: number | null;
  model: ModelFacts | null;
  tensorParallelSize: number | null;
  maxModelLen: number | null;
  port: PortProbe | null;
  disk: SpaceReading | null;
  sharedMemory: SpaceReading | null;
  previous: Snapshot | null;
  env: Readonly<Record<string, string | undefined>>;
  /** The compiled libraries (.so) the distributions' RECORDs list, read from their ELF headers; null: not read. */
  sharedObjects: readonly SharedObjectReading[] | null;
  /** What the installed torch libraries export, read when an extension needs torch symbols; null: not read. */
  torchExports: TorchExports | null;
  /** The server's own flags (its command line, with check's --tp / --max-model-len applied); null: none given. */
  server: ServerFlags | null;
}

/** What a check returns: a finding without the parts the definition already holds. */
export interface Problem {
  detail: string;
  fix: string | null;
  packages: string[];
  /** Overrides the check's default severity for this problem. */
  severity?: Severity;
  /** Overrides the check's title for this problem. */
  title?: string;
}

/** A check declared as data: stable id, default severity and title, and one pure function. */
export interface Check {
  id: string;
  severity: Severity;
  title: string;
  run(context: CheckContext): Problem[];
}

export function defineCheck(check: Check): Check {
  return check;
}
