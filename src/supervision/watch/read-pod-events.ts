import { validatePodName } from '../../sources/validate-names.js';
import { runCommand } from '../../system/run-command.js';
import type { PodEvent } from '../monitor/explain-kill.js';

/**
 * The pod's events (`kubectl get events`), oldest first: where the kubelet says it killed the container
 * for a failed probe. Empty when kubectl cannot list them (no permission, events expired).
 */
export async function readPodEvents(
  pod: string,
  namespace: string | undefined,
  env: Record<string, string | undefined>,
): Promise<PodEvent[]> {
  validatePodName(pod);
  const args = [
    'get',
    'events',
    `--field-selector=involvedObject.name=${pod}`,
    '--output=json',
    ...(namespace === undefined ? [] : [`--namespace=${namespace}`]),
  ];
  try {
    const result = await runCommand('kubectl', args, { timeoutMs: 30_000, env, maxBytes: 4 * 1024 * 1024 });
    if (result.code !== 0) return [];
    const list = JSON.parse(result.stdout) as { items?: PodEvent[] };
    return (list.items ?? []).map(({ reason, message, count }) => ({ reason, message, count }));
  } catch {
    return [];
  }
}
