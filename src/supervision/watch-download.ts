import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

/**
 * The Hugging Face cache folder whose `blobs/*.incomplete` files grow while `MODEL` (`org/name`) downloads:
 * `$HF_HUB_CACHE`, else `$HF_HOME/hub`, else `~/.cache/huggingface/hub`, then `models--org--name/blobs`.
 * Null for a local folder or a name that is no Hub id.
 */
export function downloadFolder(model: string, env: Record<string, string | undefined>): string | null {
  if (isAbsolute(model) || model.startsWith('.') || !/^[\w.-]+\/[\w.-]+$/.test(model)) return null;
  const hub =
    env.HF_HUB_CACHE ??
    (env.HF_HOME !== undefined
      ? join(env.HF_HOME, 'hub')
      : join(env.XDG_CACHE_HOME ?? join(env.HOME ?? '/root', '.cache'), 'huggingface', 'hub'));
  return join(hub, `models--${model.replace('/', '--')}`, 'blobs');
}

/** Bytes in the folder's unfinished downloads; 0 when there are none (or no folder yet). */
export async function measureDownloads(folder: string): Promise<number> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return 0;
  }
  let bytes = 0;
  for (const name of names) {
    if (!name.endsWith('.incomplete')) continue;
    try {
      bytes += (await stat(join(folder, name))).size;
    } catch {
      // Renamed into place between the listing and the stat: finished.
    }
  }
  return bytes;
}
