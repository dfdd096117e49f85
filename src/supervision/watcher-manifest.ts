import { validateSelector } from '../sources/kubectl.js';
import { validateKubeLabel, validatePodName } from '../sources/validate-names.js';

export interface WatcherManifestOptions {
  /**
   * What `--kube` follows: one pod, or the pods a label selector names (`--kube -l SELECTOR`), in the
   * namespace, to which the Role is scoped alone.
   */
  target: { pod: string } | { selector: string };
  namespace: string;
  container?: string;
  /** An image that holds vigil and kubectl. */
  image: string;
  /** `watch --follow`'s receivers, as given (`--alertmanager URL`, ...). */
  receiverArgs: readonly string[];
  name?: string;
}

const METRICS_PORT = 9464;

/**
 * `vigil watch --print-manifest`: the watcher as a Kubernetes Deployment with its ServiceAccount, a Role
 * that may only get, list and watch pods, their logs and events in one namespace, and the RoleBinding.
 * Every string is written as a JSON string, which YAML reads as the same string: no value can add a key.
 */
export function renderWatcherManifest(options: WatcherManifestOptions): string {
  if ('pod' in options.target) validatePodName(options.target.pod);
  else validateSelector(options.target.selector);
  validateKubeLabel('namespace', options.namespace);
  if (options.container !== undefined) validateKubeLabel('container', options.container);
  const name = options.name ?? 'vigil-watch';
  const q = (value: string): string => JSON.stringify(value);
  const meta = [
    `  name: ${q(name)}`,
    `  namespace: ${q(options.namespace)}`,
    `  labels:`,
    `    app.kubernetes.io/name: ${q(name)}`,
  ];
  const args = [
    'watch',
    '--follow',
    '--kube',
    ...('pod' in options.target ? [options.target.pod] : ['-l', options.target.selector]),
    '-n',
    options.namespace,
    ...(options.container === undefined ? [] : ['--container', options.container]),
    '--state-dir',
    '/var/lib/vigil/incidents',
    '--metrics-listen',
    `0.0.0.0:${METRICS_PORT}`,
    ...options.receiverArgs,
  ];
  return [
    'apiVersion: v1',
    'kind: ServiceAccount',
    'metadata:',
    ...meta,
    '---',
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: Role',
    'metadata:',
    ...meta,
    'rules:',
    '  - apiGroups: [""]',
    '    resources: ["pods", "pods/log", "events"]',
    '    verbs: ["get", "list", "watch"]',
    '---',
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: RoleBinding',
    'metadata:',
    ...meta,
    'roleRef:',
    '  apiGroup: rbac.authorization.k8s.io',
    '  kind: Role',
    `  name: ${q(name)}`,
    'subjects:',
    '  - kind: ServiceAccount',
    `    name: ${q(name)}`,
    `    namespace: ${q(options.namespace)}`,
    '---',
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    ...meta,
    'spec:',
    '  replicas: 1',
    '  strategy:',
    '    type: Recreate',
    '  selector:',
    '    matchLabels:',
    `      app.kubernetes.io/name: ${q(name)}`,
    '  template:',
    '    metadata:',
    '      labels:',
    `        app.kubernetes.io/name: ${q(name)}`,
    '    spec:',
    `      serviceAccountName: ${q(name)}`,
    '      securityContext:',
    '        runAsNonRoot: true',
    '        runAsUser: 65532',
    '        fsGroup: 65532',
    '        seccompProfile:',
    '          type: RuntimeDefault',
    '      containers:',
    '        - name: vigil',
    `          image: ${q(options.image)}`,
    `          args: [${args.map(q).join(', ')}]`,
    '          env:',
    '            # kubectl keeps its cache under HOME; the root file system is read-only.',
    '            - { name: HOME, value: /var/lib/vigil }',
    '          ports:',
    `            - { name: metrics, containerPort: ${METRICS_PORT} }`,
    '          securityContext:',
    '            allowPrivilegeEscalation: false',
    '            readOnlyRootFilesystem: true',
    '            capabilities:',
    '              drop: ["ALL"]',
    '          volumeMounts:',
    '            - { name: state, mountPath: /var/lib/vigil }',
    '      volumes:',
    '        # Incidents survive a restart of the container; use a PersistentVolumeClaim to keep them across pods.',
    '        - { name: state, emptyDir: {} }',
    '',
  ].join('\n');
}
