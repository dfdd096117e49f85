import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { BIN } from './helpers.js';

interface ManifestDoc {
  kind: string;
  metadata: { namespace: string };
  rules?: unknown;
  spec?: {
    template: {
      spec: {
        serviceAccountName: string;
        containers: { image: string; args: string[]; securityContext: unknown }[];
      };
    };
  };
}

// No cluster runs here: the manifest is read back by a YAML parser and its objects checked.

function printManifest(extra: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(
    process.execPath,
    [BIN, 'watch', '--print-manifest', '--kube', 'vllm-0', '-n', 'llm', ...extra],
    { encoding: 'utf8' },
  );
}

describe('vigil watch --print-manifest', () => {
  it('prints a ServiceAccount, a Role limited to reading pods, logs and events in one namespace, its binding and the Deployment', () => {
    const printed = printManifest([
      '--image',
      'registry.example/vigil:0.1',
      '--alertmanager',
      'http://am.monitoring:9093',
    ]);
    expect(printed.status).toBe(0);
    const docs = parseAllDocuments(printed.stdout).map((doc) => doc.toJS() as ManifestDoc);
    expect(docs.map((doc) => doc.kind)).toEqual(['ServiceAccount', 'Role', 'RoleBinding', 'Deployment']);
    expect(docs.every((doc) => doc.metadata.namespace === 'llm')).toBe(true);
    expect(docs[1]?.rules).toEqual([
      { apiGroups: [''], resources: ['pods', 'pods/log', 'events'], verbs: ['get', 'list', 'watch'] },
    ]);
    const pod = docs[3]?.spec?.template.spec;
    expect(pod?.serviceAccountName).toBe('vigil-watch');
    expect(pod?.containers[0]?.image).toBe('registry.example/vigil:0.1');
    expect(pod?.containers[0]?.args).toEqual([
      'watch',
      '--follow',
      '--kube',
      'vllm-0',
      '-n',
      'llm',
      '--state-dir',
      '/var/lib/vigil/incidents',
      '--metrics-listen',
      '0.0.0.0:9464',
      '--alertmanager',
      'http://am.monitoring:9093/',
    ]);
    expect(pod?.containers[0]?.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
    });
  });

  // The selector's form: every pod `-l` names in the namespace, each as it comes and goes.
  it('prints the same objects for --kube -l SELECTOR, the Deployment following the selector', () => {
    const printed = spawnSync(
      process.execPath,
      [
        BIN,
        'watch',
        '--print-manifest',
        '--kube',
        '-l',
        'app=vllm,tier=serve',
        '-n',
        'llm',
        '--image',
        'img:1',
      ],
      { encoding: 'utf8' },
    );
    expect(printed.status).toBe(0);
    const docs = parseAllDocuments(printed.stdout).map((doc) => doc.toJS() as ManifestDoc);
    expect(docs.map((doc) => doc.kind)).toEqual(['ServiceAccount', 'Role', 'RoleBinding', 'Deployment']);
    expect(docs.every((doc) => doc.metadata.namespace === 'llm')).toBe(true);
    expect(docs[1]?.rules).toEqual([
      { apiGroups: [''], resources: ['pods', 'pods/log', 'events'], verbs: ['get', 'list', 'watch'] },
    ]);
    const pod = docs[3]?.spec?.template.spec;
    expect(pod?.serviceAccountName).toBe('vigil-watch');
    const bad = spawnSync(
      process.execPath,
      [
        BIN,
        'watch',
        '--print-manifest',
        '--kube',
        '-l',
        'app=vllm"\n  evil: yes',
        '-n',
        'llm',
        '--image',
        'x',
      ],
      { encoding: 'utf8' },
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(pod?.containers[0]?.args.slice(0, 6)).toEqual([
      'watch',
      '--follow',
      '--kube',
      '-l',
      'app=vllm,tier=serve',
      '-n',
    ]);
  });

  it.each([
    ['no image', []],
    ['a pod name that cannot be one', ['--image', 'x', '--kube', 'Bad_Pod"\n  evil: yes']],
  ])('refuses %s in one line, exit 2', (_name, extra) => {
    const printed = printManifest(extra);
    expect(printed.status).toBe(2);
    expect(printed.stderr.trim().split('\n')).toHaveLength(1);
  });
});
