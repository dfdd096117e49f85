import { existsSync, statfsSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface PortProbe {
  port: number;
  /** `free`, `in-use` (EADDRINUSE on some address), or `denied` (EACCES: a privileged port, say). */
  state: 'free' | 'in-use' | 'denied';
  /** The address that refused, when not free. */
  address: string | null;
}

export interface SpaceReading {
  path: string;
  totalBytes: number;
  freeBytes: number;
}

/** Tries to listen on the port on loopback and on all interfaces, closing at once; vLLM binds 0.0.0.0. */
export async function probePort(port: number): Promise<PortProbe> {
  for (const address of ['127.0.0.1', '0.0.0.0']) {
    const code = await tryListen(port, address);
    if (code === 'EADDRINUSE') return { port, state: 'in-use', address };
    if (code === 'EACCES' || code === 'EPERM') return { port, state: 'denied', address };
  }
  return { port, state: 'free', address: null };
}

function tryListen(port: number, host: string): Promise<string | null> {
  return new Promise((done) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'EUNKNOWN'));
    server.listen({ port, host, exclusive: true }, () => server.close(() => done(null)));
  });
}

/** Free and total space of the file system holding `path` (or its nearest existing parent). */
export function readSpace(path: string): SpaceReading | null {
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    const stats = statfsSync(existing);
    return { path: existing, totalBytes: stats.blocks * stats.bsize, freeBytes: stats.bavail * stats.bsize };
  } catch {
    return null;
  }
}

/** Where model downloads and compile caches land: $HF_HOME, else ~/.cache/huggingface. */
export function describeCachePath(env: Record<string, string | undefined>): string {
  const hfHome = env.HF_HOME;
  if (hfHome !== undefined && hfHome !== '') return hfHome;
  const xdg = env.XDG_CACHE_HOME;
  return join(xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.cache'), 'huggingface');
}

/** /dev/shm, which NCCL and vLLM's worker queues use; null where there is none (macOS). */
export function readSharedMemory(): SpaceReading | null {
  return existsSync('/dev/shm') ? readSpace('/dev/shm') : null;
}
