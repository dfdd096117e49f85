import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CHECKS, runChecks, type Finding } from '../checks/index.js';
import { mostCommonInstaller } from '../fix/aim-findings.js';
import { collectRequirementEdges } from '../checks/requirement-edges.js';
import { SourceError } from '../errors.js';
import { LIMITS } from '../limits.js';
import { readRegularFile } from '../system/read-regular-file.js';
import { indexDistributions } from './index-distributions.js';
import type { EnvironmentOptions } from './locate-environment.js';
import { readEnvironment } from './read-environment.js';
import { readGpu, type GpuReading } from './read-gpu.js';
import { describeCachePath, probePort, readSharedMemory, readSpace } from './read-host.js';
import { readModel } from './read-model.js';
import { resolveHubModel, type HubModel } from './resolve-hub-model.js';
import { readSharedObjects, readTorchExports } from './read-shared-objects.js';
import { parseServerFlags, type ServerFlags } from '../engines/server-flags.js';
import type { Snapshot } from './snapshot.js';
import { waitGpuFree } from './wait-gpu-free.js';
import type { CommandRunner } from '../system/run-command.js';

/** The `vigil check` flags, for callers such as `vigil run`'s preflight. */
export interface CheckOptions extends EnvironmentOptions {
  /** --gpu: a missing or failing nvidia-smi is an error finding instead of a note. */
  gpu?: boolean;
  /** --model DIR: a folder with config.json. */
  model?: string;
  /** --tp N: tensor-parallel size. */
  tp?: number;
  maxModelLen?: number;
  /** --port N: fail when it is already bound. */
  port?: number;
  /** --against: a snapshot file path, or one already parsed. */
  against?: string | Snapshot;
  /** --wait-gpu-free SECONDS: wait for other processes to release GPU memory before checking. */
  waitGpuFree?: number;
  /** The server command that will run (`vllm serve M --tp 8 …`): its flags fill what the options above leave out. */
  serverCommand?: readonly string[];
  /** Where nvidia-smi runs (check --ssh); there the disk and /dev/shm of this host say nothing. */
  runner?: CommandRunner;
}

export interface CheckReport {
  schemaVersion: 1;
  environment: {
    python: string | null;
    pythonVersion: string | null;
    sitePackages: string[];
    /** The INSTALLER most of its distributions name (uv, pip, conda): the fix installs the same way. */
    installer: string | null;
    /** How many distributions were read (the list itself is what `vigil snapshot` prints). */
    distributions: number;
  };
  findings: Finding[];
}

/** Reads the environment, GPU, host and model at the edges, then runs every check on that data. */
export async function runCheck(options: CheckOptions): Promise<CheckReport> {
  const env = options.env ?? process.env;
  const previous = await readAgainst(options.against, options.cwd);
  const environment = await readEnvironment(options);
  const installed = indexDistributions(environment.distributions);
  const server = serverCommand(options);
  const fromServer = options.model === undefined ? modelFromServer(server, options.cwd, env) : null;
  const modelFolder = options.model ?? (fromServer?.kind === 'found' ? fromServer.folder : undefined);
  const model =
    modelFolder === undefined ? null : readModel(resolve(options.cwd ?? '.', modelFolder), installed);
  const sharedObjects = readSharedObjects(environment.distributions);
  const portToProbe = options.port ?? server?.port ?? undefined;
  const processEnv = { ...process.env, ...env };
  const waited =
    options.waitGpuFree === undefined ? null : await waitGpuFree(options.waitGpuFree, { env: processEnv });
  const gpu: GpuReading = waited?.reading ?? (await readGpu(processEnv, options.runner));
  const here = options.runner === undefined || options.runner.host === null;
  const findings = runChecks(CHECKS, {
    environment,
    installed,
    edges: collectRequirementEdges(installed, environment.markers).edges,
    gpu,
    gpuRequired: options.gpu === true,
    gpuWaitedMs: waited?.waitedMs ?? null,
    model,
    tensorParallelSize: options.tp ?? server?.tensorParallel ?? null,
    maxModelLen: options.maxModelLen ?? server?.maxModelLen ?? null,
    port: portToProbe === undefined ? null : await probePort(portToProbe),
    disk: here ? readSpace(model?.path ?? describeCachePath(env)) : null,
    sharedMemory: here ? readSharedMemory() : null,
    previous,
    env,
    sharedObjects,
    torchExports: readTorchExports(installed.get('torch'), sharedObjects),
    server,
  });
  // A model the server names but that could not be read: say which checks did not run, never stay silent.
  if (fromServer?.kind === 'missing') findings.push(modelNotRead(fromServer.reason, server?.model ?? ''));
  return {
    schemaVersion: 1,
    environment: {
      python: environment.python,
      pythonVersion: environment.pythonVersion,
      sitePackages: environment.sitePackages,
      installer: mostCommonInstaller(environment.distributions),
      distributions: environment.distributions.length,
    },
    findings,
  };
}

/** The server's flags, with check's own --tp / --max-model-len / --port taking precedence. */
function serverCommand(options: CheckOptions): ServerFlags | null {
  if (options.serverCommand === undefined || options.serverCommand.length === 0) return null;
  const flags = parseServerFlags(options.serverCommand);
  return {
    ...flags,
    tensorParallel: options.tp ?? flags.tensorParallel,
    maxModelLen: options.maxModelLen ?? flags.maxModelLen,
    port: options.port ?? flags.port,
  };
}

/**
 * `vllm serve /models/X`: a folder with config.json; `vllm serve ORG/NAME`: that id's snapshot in the local
 * Hugging Face cache (resolve-hub-model.ts). `missing` when the server names a model that cannot be read.
 */
function modelFromServer(
  server: ServerFlags | null,
  cwd: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): HubModel {
  if (server?.model == null) return null;
  const folder = resolve(cwd ?? '.', server.model);
  if (existsSync(join(folder, 'config.json'))) return { kind: 'found', folder };
  const hub = resolveHubModel(server.model, env);
  if (hub !== null) return hub;
  return { kind: 'missing', reason: `${folder} has no config.json` };
}

function modelNotRead(reason: string, model: string): Finding {
  return {
    id: 'model-not-read',
    severity: 'info',
    title: 'Model checks not run',
    detail:
      `${reason}: the architecture, max-model-len, tensor-parallel and memory-fit (KV cache) checks were not run. ` +
      'Download the model first, or give its folder with --model.',
    fix: /^[\w.-]+\/[\w.-]+$/.test(model) ? `hf download ${model}` : null,
    packages: [],
  };
}

async function readAgainst(
  against: string | Snapshot | undefined,
  cwd: string | undefined,
): Promise<Snapshot | null> {
  if (against === undefined) return null;
  if (typeof against !== 'string') return against;
  return readSnapshotFile(resolve(cwd ?? '.', against), against);
}

/** Reads and validates a snapshot file; a missing or malformed one is one line naming it. */
export async function readSnapshotFile(path: string, shownAs: string = path): Promise<Snapshot> {
  // Regular files within the cap only: an 85 MB pair of snapshots took 1.36 GB, a FIFO would hang.
  const reading = readRegularFile(path, LIMITS.snapshotFileBytes);
  if (reading.kind !== 'text') {
    throw new SourceError(
      `cannot read snapshot ${shownAs}: ${reading.kind === 'missing' ? 'ENOENT' : reading.reason}`,
    );
  }
  const text = reading.text;
  const { parseSnapshot } = await import('./parse-snapshot.js');
  return parseSnapshot(text, shownAs);
}
