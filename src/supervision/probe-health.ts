import { UsageError } from '../errors.js';

/** Checks the URL is one the probe can ask: http or https, with a host. */
export function parseHealthUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `--health ${JSON.stringify(text)} is not a URL; use e.g. http://127.0.0.1:8000/health`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--health ${JSON.stringify(text)} must be an http or https URL`);
  }
  return url;
}

/**
 * One GET: true on a 2xx answer. A refused connection, a timeout or any other status is false. No
 * keep-alive agent, so a finished probe leaves no socket behind.
 */
export async function probeHealth(url: URL, timeoutMs: number): Promise<boolean> {
  // Loaded at the first probe: most runs never ask one, and start-up is part of `vigil run`'s cost.
  const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise((resolve) => {
    const req = request(url, { method: 'GET', agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

/** The engine's model list on the health URL's server (`/v1/models` beside `/health`). */
export function modelListUrl(healthUrl: URL, path: string): URL {
  return new URL(path, healthUrl);
}

/**
 * Ready means able to serve: the health URL answers 2xx and so does the model list, where the engine has
 * one; several engines answer `/health` while the model is still loading behind it.
 */
export async function probeReady(healthUrl: URL, modelList: URL | null, timeoutMs: number): Promise<boolean> {
  if (!(await probeHealth(healthUrl, timeoutMs))) return false;
  return modelList === null || probeHealth(modelList, timeoutMs);
}
