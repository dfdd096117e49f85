import { UsageError } from '../errors.js';
import {
  alertmanagerBody,
  hookEnvironment,
  slackBody,
  webhookBody,
  type IncidentNotice,
} from '../incidents/index.js';
import { redactText } from '../redaction/index.js';
import { runCommand } from '../system/run-command.js';

/** Where incidents are sent; `send` rejects when the receiver did not take the notice. */
export interface Receiver {
  name: string;
  /** The receiver as logs may name it: a URL's credentials and query left out. */
  label: string;
  /** Open incidents are sent again now and then (Alertmanager ends an alert that is not). */
  refreshMs: number | null;
  /** Which notices it wants (`--on-failure` runs for a firing only). */
  wants(notice: IncidentNotice): boolean;
  /** `signal` aborts a request in flight (the watcher stopping); a program run has its own timeout. */
  send(notice: IncidentNotice, signal?: AbortSignal): Promise<void>;
}

const HTTP_TIMEOUT_MS = 10_000;

/** A receiver URL from the command line: http or https, or one line and exit 2. */
export function parseReceiverUrl(text: string, flag: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${flag}: not a URL: ${redactText(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${flag}: only http and https URLs are sent to, not ${url.protocol}`);
  return url;
}

/** `https://hooks.slack.com/…` without its secret path and query: what a warning may print. */
function labelOf(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.length > 1 ? '/…' : '/'}`;
}

async function postJson(url: URL, body: string, stop?: AbortSignal): Promise<void> {
  const timeout = AbortSignal.timeout(HTTP_TIMEOUT_MS);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    signal: stop === undefined ? timeout : AbortSignal.any([timeout, stop]),
  });
  // The answer's body is read and dropped, so the connection is freed.
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw new Error(`answered ${response.status} ${response.statusText}`);
}

export function webhookReceiver(url: URL): Receiver {
  return {
    name: 'webhook',
    label: labelOf(url),
    refreshMs: null,
    wants: () => true,
    send: (notice, signal) => postJson(url, webhookBody(notice), signal),
  };
}

export function slackReceiver(url: URL): Receiver {
  return {
    name: 'slack',
    label: labelOf(url),
    refreshMs: null,
    wants: () => true,
    send: (notice, signal) => postJson(url, slackBody(notice), signal),
  };
}

/** `--alertmanager URL`: the server's base URL; alerts go to `/api/v2/alerts` under it. */
export function alertmanagerReceiver(base: URL, refreshMs = 60_000): Receiver {
  const url = new URL('api/v2/alerts', base.href.endsWith('/') ? base : new URL(`${base.href}/`));
  return {
    name: 'alertmanager',
    label: labelOf(base),
    refreshMs,
    wants: () => true,
    send: (notice, signal) => postJson(url, alertmanagerBody(notice, new Date()), signal),
  };
}

/**
 * `--on-failure CMD`: the program and its arguments split on spaces (quotes group), run without a shell,
 * the webhook's JSON on its stdin and a few fields in its environment; a non-zero exit or the timeout is
 * a failed delivery, retried like any other.
 */
export function hookReceiver(
  command: string,
  env: Record<string, string | undefined>,
  timeoutMs = 30_000,
): Receiver {
  const argv = splitCommand(command);
  const [program, ...args] = argv;
  if (program === undefined) throw new UsageError('--on-failure: give the program to run');
  return {
    name: 'on-failure',
    label: program,
    refreshMs: null,
    wants: (notice) => notice.kind === 'firing',
    async send(notice) {
      const result = await runCommand(program, args, {
        timeoutMs,
        env: { ...env, ...hookEnvironment(notice) },
        input: webhookBody(notice),
        label: `--on-failure ${program}`,
        maxBytes: 64 * 1024,
      });
      if (result.code !== 0)
        throw new Error(
          `exited ${result.code ?? result.signal ?? '?'}${result.stderr.trim() === '' ? '' : `: ${result.stderr.trim().split('\n').pop() ?? ''}`}`,
        );
    },
  };
}

/** `notify-send "server down" --urgency=critical` as an argument list: quotes group, no shell expands. */
export function splitCommand(command: string): string[] {
  const args: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  let started = false;
  for (const char of command) {
    if (quote !== null) {
      if (char === quote) quote = null;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      started = true;
    } else if (/\s/.test(char)) {
      if (started) args.push(current);
      current = '';
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (quote !== null) throw new UsageError(`--on-failure: an unclosed ${quote} in ${command}`);
  if (started) args.push(current);
  return args;
}
