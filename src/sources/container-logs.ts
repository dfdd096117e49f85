import type { CommandRunner } from '../system/run-command.js';
import type { OpenedSource } from './types.js';
import { validateContainerName, validateKubeLabel, validatePodName } from './validate-names.js';

export interface DockerSpec {
  container: string;
  since?: string;
}

export interface KubeSpec {
  pod: string;
  namespace?: string;
  container?: string;
  previous?: boolean;
}

/**
 * `docker logs NAME`, without --timestamps: the container's lines as it wrote them. docker replays the
 * container's stdout and stderr on its own two streams; both are the log, merged in arrival order.
 */
export async function openDockerLogs(
  spec: DockerSpec,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<OpenedSource> {
  validateContainerName(spec.container);
  const args = ['logs', ...(spec.since === undefined ? [] : [`--since=${spec.since}`]), spec.container];
  const command = await runner.start('docker', args, {
    timeoutMs,
    env,
    label: 'docker logs',
    mergeStderr: true,
    errorLine: 'last',
  });
  return {
    chunks: command.chunks,
    describe: `docker logs of ${spec.container}`,
    formats: ['docker'],
    warnings: [],
  };
}

/** `kubectl logs POD`; kubectl's own complaints go to stderr, of which the last line says what failed. */
export async function openKubeLogs(
  spec: KubeSpec,
  runner: CommandRunner,
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<OpenedSource> {
  validatePodName(spec.pod);
  if (spec.namespace !== undefined) validateKubeLabel('namespace', spec.namespace);
  if (spec.container !== undefined) validateKubeLabel('container', spec.container);
  const args = ['logs', spec.pod];
  if (spec.namespace !== undefined) args.push(`--namespace=${spec.namespace}`);
  if (spec.container !== undefined) args.push(`--container=${spec.container}`);
  if (spec.previous === true) args.push('--previous');
  const command = await runner.start('kubectl', args, {
    timeoutMs,
    env,
    label: 'kubectl logs',
    errorLine: 'last',
  });
  const where = [spec.namespace, spec.pod].filter((part) => part !== undefined).join('/');
  const what = `${spec.previous === true ? 'previous ' : ''}kubectl logs of ${where}`;
  return {
    chunks: command.chunks,
    describe: spec.container === undefined ? what : `${what} (container ${spec.container})`,
    formats: ['kubectl'],
    warnings: [],
  };
}
