import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** A Hugging Face id as servers take it: ORG/NAME (no leading dot or slash: a path is a folder). */
const HUB_ID = /^(?<org>[A-Za-z0-9][\w.-]*)\/(?<name>[A-Za-z0-9][\w.-]*)$/;

export type HubModel = { kind: 'found'; folder: string } | { kind: 'missing'; reason: string } | null;

/** The hub cache folder, as huggingface_hub finds it: HF_HUB_CACHE, else HF_HOME/hub, else ~/.cache/huggingface/hub. */
export function hubCacheFolder(env: Readonly<Record<string, string | undefined>>): string {
  if (env.HF_HUB_CACHE) return env.HF_HUB_CACHE;
  if (env.HF_HOME) return join(env.HF_HOME, 'hub');
  return join(env.HOME ?? homedir(), '.cache', 'huggingface', 'hub');
}

/**
 * The local snapshot of a Hugging Face id (`models--ORG--NAME/snapshots/REV/`, REV from refs/main, else the
 * newest snapshot with a config.json); `missing` with why when it is not there; null when `model` is not an id.
 */
export function resolveHubModel(model: string, env: Readonly<Record<string, string | undefined>>): HubModel {
  const id = HUB_ID.exec(model)?.groups;
  if (id === undefined) return null;
  const cache = hubCacheFolder(env);
  const repo = join(cache, `models--${id.org}--${id.name}`);
  const snapshots = join(repo, 'snapshots');
  const ref = readText(join(repo, 'refs', 'main'))?.trim();
  if (ref !== undefined && /^[\w.-]+$/.test(ref) && existsSync(join(snapshots, ref, 'config.json'))) {
    return { kind: 'found', folder: join(snapshots, ref) };
  }
  const candidates = listFolders(snapshots)
    .map((name) => join(snapshots, name))
    .filter((folder) => existsSync(join(folder, 'config.json')))
    .sort((a, b) => modified(b) - modified(a));
  const [newest] = candidates;
  if (newest !== undefined) return { kind: 'found', folder: newest };
  return {
    kind: 'missing',
    reason: existsSync(repo)
      ? `${repo} has no snapshot with a config.json`
      : `${model} is not in the local Hugging Face cache (${cache})`,
  };
}

function listFolders(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

function modified(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
