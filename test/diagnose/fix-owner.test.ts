import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { standInDocker } from '../fleet/helpers/stand-ins.js';
import { runCliCaptured } from '../helpers/run-cli-captured.js';
import { tempDir, writeFakeCommand } from '../sources/helpers/fake-command.js';

/**
 * The fix for a container or pod rebuilds the image and restarts what owns it: the compose service named by
 * the container's labels (`docker inspect`), the Deployment that owns the pod's ReplicaSet (`kubectl get pod`,
 * `kubectl get replicaset`), each read from what the real programs print. No host pip command.
 */

/** kubectl as a cluster answers: the pod, its ReplicaSet, the pod's log; each call recorded. */
const KUBECTL = `
echo "$*" >> "$DIR/calls.log"
case "$1 $2" in
  "get pod") cat "$FIXTURE/pod.json" ;;
  "get replicaset") f="$FIXTURE/replicasets/$3.json"
    if [ -f "$f" ]; then cat "$f"; else echo "Error from server (NotFound): replicasets.apps \\"$3\\" not found" >&2; exit 1; fi ;;
  "logs "*) cat "$FIXTURE/logs/$2.log" ;;
  *) echo "error: unknown command \\"$1\\" for \\"kubectl\\"" >&2; exit 1 ;;
esac
`;

const HOST_PIP = /^(?!RUN )(?:\S*python\S* -m )?(?:uv )?pip install/m;

describe('the fix for a container or pod is the image’s, restarted through its owner', () => {
  it('diagnose --docker NAME of a compose service: the Dockerfile line, then compose up --build', async () => {
    const docker = await standInDocker('compose-package-mismatch');
    const result = await runCliCaptured(['diagnose', '--docker', 'llm-vllm-1', '--format', 'json'], {
      env: docker.env,
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      signature: { fix: string; tryNow?: string; verify?: string };
    };
    const { fix, tryNow, verify } = report.signature;
    expect(fix).toMatch(/^RUN .*pip install .*flashinfer-cubin==0\.6\.4/m);
    expect(fix).toContain('docker compose -p llm up -d --build vllm');
    expect(fix).not.toMatch(HOST_PIP);
    expect(tryNow).toMatch(/^docker exec llm-vllm-1 /);
    expect(verify).toBe('vigil diagnose --docker llm-vllm-1');
    expect(await docker.calls()).toEqual(['logs llm-vllm-1', 'inspect --type=container llm-vllm-1']);
  });

  it('diagnose --kube POD of a Deployment: the Dockerfile line, then rollout restart of the Deployment', async () => {
    const dir = await tempDir();
    await writeFakeCommand(dir, 'kubectl', KUBECTL);
    const env = {
      PATH: `${dir}:/usr/bin:/bin`,
      DIR: dir,
      FIXTURE: join(process.cwd(), 'test/fixtures/fleet/deployment-package-mismatch'),
    };
    const pod = 'vllm-qwen3-6d8f9c7b54-2x7kq';
    const result = await runCliCaptured(['diagnose', '--kube', pod, '-n', 'llm', '--format', 'json'], {
      env,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      signature: { fix: string; tryNow?: string; verify?: string };
    };
    const { fix, tryNow, verify } = report.signature;
    expect(fix).toMatch(/^RUN .*pip install .*flashinfer-cubin==0\.6\.4/m);
    expect(fix).toContain('kubectl rollout restart deployment/vllm-qwen3 -n llm');
    expect(fix).not.toMatch(HOST_PIP);
    expect(tryNow).toMatch(new RegExp(`^kubectl exec ${pod} -n llm -- `));
    expect(verify).toBe('kubectl rollout status deployment/vllm-qwen3 -n llm');
  });

  it('a pod whose owner cannot be read still gets the image advice, and says how to find the owner', async () => {
    const dir = await tempDir();
    // No permission to get pods: kubectl's own refusal.
    await writeFakeCommand(
      dir,
      'kubectl',
      `case "$1" in logs) cat "$FIXTURE/logs/$2.log" ;; *) echo 'Error from server (Forbidden): pods "x" is forbidden' >&2; exit 1 ;; esac`,
    );
    const env = {
      PATH: `${dir}:/usr/bin:/bin`,
      FIXTURE: join(process.cwd(), 'test/fixtures/fleet/deployment-package-mismatch'),
    };
    const result = await runCliCaptured(
      ['diagnose', '--kube', 'vllm-qwen3-6d8f9c7b54-2x7kq', '--format', 'json'],
      { env },
    );
    expect(result.code).toBe(1);
    const { fix } = (JSON.parse(result.stdout) as { signature: { fix: string } }).signature;
    expect(fix).toMatch(/^RUN /m);
    expect(fix).toContain('ownerReferences');
    expect(fix).not.toMatch(HOST_PIP);
  });
});
