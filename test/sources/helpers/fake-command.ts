import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/** A temp folder, removed when the test ends. */
export async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-sources-'));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Writes an executable sh script named `name` into dir: a real program for spawn to find on PATH. */
export async function writeFakeCommand(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

/** An environment whose PATH finds dir first, then only the system's basic tools. */
export function pathWith(dir: string): Record<string, string | undefined> {
  return { PATH: `${dir}:/usr/bin:/bin` };
}

/** Drains an opened source into one string. */
export async function readAll(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString('utf8');
}
