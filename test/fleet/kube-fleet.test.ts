import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/reporting/html/escape-html.js';
import { runCliCaptured } from '../helpers/run-cli-captured.js';
import { standInKubectl } from './helpers/stand-ins.js';

interface FleetJson {
  total: number;
  failed: number;
  groups: {
    key: string;
    kind: string;
    role: string;
    summary: string;
    signature: string | null;
    members: string[];
    count: number;
  }[];
  members: {
    name: string;
    source: string | null;
    cause: { kind: string; key: string; peer: boolean };
    state: { restartCount: number } | null;
  }[];
}

const RS = 'vllm-qwen3-6d8f9c7b54';
const OOM_CAPTURE = ['2x7kq', '5mvbn', '8rjtz', 'fh9sd', 'k2n6x', 'w3zpt'].map((s) => `${RS}-${s}`);
const OOM_KILLED = ['c4wlp', 'q7bxm'].map((s) => `${RS}-${s}`);

describe('diagnose --kube -l on an 8-pod rollout with two causes (kubectl stand-in)', () => {
  it('gives two groups, biggest first, with the right pods and causes in JSON', async () => {
    const kubectl = await standInKubectl('rollout-8-pods');
    const result = await runCliCaptured(
      ['diagnose', '--kube', '-l', 'app=vllm-qwen3', '-n', 'llm', '--format', 'json'],
      { env: kubectl.env },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as FleetJson;
    expect(report).toMatchObject({ total: 8, failed: 8 });
    expect(report.groups.map((group) => [group.count, group.kind, group.role, group.signature])).toEqual([
      [6, 'log', 'own', 'cuda-oom-cudagraph-capture'],
      [2, 'killed', 'own', null],
    ]);
    expect(report.groups[0]?.members).toEqual(OOM_CAPTURE);
    expect(report.groups[1]?.members).toEqual(OOM_KILLED);
    expect(report.groups[1]?.summary).toMatch(/^killed from outside: OOMKilled \(exit 137\)/);
    expect(report.members).toHaveLength(8);
    expect(report.members.find((m) => m.name === OOM_KILLED[0])).toMatchObject({
      cause: { kind: 'killed', key: 'killed:OOMKilled' },
      source: `previous kubectl logs of llm/${OOM_KILLED[0]}`,
      state: { restartCount: 4 },
    });

    const calls = await kubectl.calls();
    expect(calls[0]).toBe('get pods --selector=app=vllm-qwen3 --namespace=llm --output=json');
    expect(calls).toContain(`logs ${OOM_CAPTURE[0]} --namespace=llm --previous`);
    expect(calls).toContain(
      `get events --namespace=llm --field-selector=involvedObject.name=${OOM_KILLED[1]} --output=json`,
    );
  });

  it('says the same in text and Markdown', async () => {
    const kubectl = await standInKubectl('rollout-8-pods');
    const text = await runCliCaptured(['diagnose', '--kube', '-l', 'app=vllm-qwen3', '-n', 'llm'], {
      env: kubectl.env,
    });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('8 of 8 failed, 2 root causes');
    expect(text.stdout).toMatch(/✖ 6 of 8: .*CUDA graph/);
    expect(text.stdout).toMatch(/✖ 2 of 8: killed from outside: OOMKilled \(exit 137\)/);
    expect(text.stdout).toContain(OOM_CAPTURE.join(', '));
    expect(text.stdout).toContain(OOM_KILLED.join(', '));
    expect(text.stdout.indexOf('6 of 8')).toBeLessThan(text.stdout.indexOf('2 of 8'));

    const markdown = await runCliCaptured(
      ['diagnose', '--kube', '-l', 'app=vllm-qwen3', '-n', 'llm', '--format', 'markdown'],
      { env: kubectl.env },
    );
    expect(markdown.stdout).toMatch(/^## Vigil fleet: pods app=vllm-qwen3 in llm/);
    const rows = markdown.stdout.split('\n').filter((line) => /^\| \d of 8 \|/.test(line));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain(`\`${OOM_CAPTURE[5]}\``);
    expect(rows[1]).toMatch(/killed from outside: OOMKilled/);
    expect(rows[1]).toContain(`\`${OOM_KILLED[0]}\`, \`${OOM_KILLED[1]}\``);
  });
});

describe('the 8-pod rollout as an incident page (--format html)', () => {
  it('summarises every pod, groups them by cause biggest first, and gives each its own section', async () => {
    const kubectl = await standInKubectl('rollout-8-pods');
    const page = await runCliCaptured(
      ['diagnose', '--kube', '-l', 'app=vllm-qwen3', '-n', 'llm', '--format', 'html'],
      { env: kubectl.env },
    );
    expect(page.code).toBe(1);
    expect(page.stdout).toMatch(/^<!doctype html>/);
    expect(page.stdout).toContain('Vigil diagnosis of pods app=vllm-qwen3 in llm');
    expect(page.stdout).toContain('8 of 8 failed');
    const causes = page.stdout.slice(page.stdout.indexOf('<h2>Causes</h2>'));
    expect(causes).toContain(`6 of 8: ${OOM_CAPTURE.join(', ')}`);
    expect(causes).toContain(`2 of 8: ${OOM_KILLED.join(', ')}`);
    expect(causes.indexOf('6 of 8')).toBeLessThan(causes.indexOf('2 of 8'));
    expect(causes).toMatch(/killed from outside: OOMKilled \(exit 137\)/);
    expect(page.stdout.match(/<section id="report-\d+"/g)).toHaveLength(8);
  });

  it('gives the fix the six pods share once, naming them, in every format; each pod points at it', async () => {
    const kubectl = await standInKubectl('rollout-8-pods');
    const argv = ['diagnose', '--kube', '-l', 'app=vllm-qwen3', '-n', 'llm'];
    const [json, text, markdown, page] = await Promise.all(
      [['--format', 'json'], [], ['--format', 'markdown'], ['--format', 'html']].map((format) =>
        runCliCaptured([...argv, ...format], { env: kubectl.env }),
      ),
    );
    const groups = (
      JSON.parse(json?.stdout ?? '') as { groups: { fixes: { fix: string; members: string[] }[] }[] }
    ).groups;
    // The OOM-killed pods have no signature, so no fix; the six of one Deployment share one.
    expect(groups.map((group) => group.fixes.map((fix) => fix.members))).toEqual([[OOM_CAPTURE], []]);
    const fix = groups[0]?.fixes[0]?.fix ?? '';
    expect(fix).toMatch(/--gpu-memory-utilization|--enforce-eager|cudagraph/);
    const firstLine = fix.split('\n')[0] ?? '';
    expect(text?.stdout.split(firstLine).length).toBe(2);
    expect(text?.stdout).toMatch(/^ {2}fix: /m);
    expect(markdown?.stdout.split(firstLine).length).toBe(2);
    expect(markdown?.stdout).toContain(`For ${OOM_CAPTURE.map((name) => `\`${name}\``).join(', ')}:`);
    const html = page?.stdout ?? '';
    const fixes = html.slice(html.indexOf('<h2>Fixes</h2>'), html.indexOf('<section id="report-0"'));
    expect(fixes).toContain(`For ${OOM_CAPTURE.join(', ')}</h3>`);
    expect(html.split(escapeHtml(firstLine)).length).toBe(2);
    expect(html.match(/<a href="#group-fix-0">the fix above<\/a>/g)).toHaveLength(6);
  });
});

describe('diagnose --kube -l on a LeaderWorkerSet whose leader failed first', () => {
  it('tells the rank with its own cause from the ranks that died waiting for it', async () => {
    const kubectl = await standInKubectl('lws-4-ranks');
    const result = await runCliCaptured(
      [
        'diagnose',
        '--kube',
        '-l',
        'leaderworkerset.sigs.k8s.io/name=vllm-ds',
        '-n',
        'llm',
        '--format',
        'json',
      ],
      { env: kubectl.env },
    );
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as FleetJson;
    expect(report.groups.map((group) => [group.role, group.members])).toEqual([
      ['peer', ['vllm-ds-0-1', 'vllm-ds-0-2', 'vllm-ds-0-3']],
      ['own', ['vllm-ds-0']],
    ]);
    expect(report.groups[0]?.signature).toBe('nccl-watchdog-timeout');
    const text = await runCliCaptured(
      ['diagnose', '--kube', '-l', 'leaderworkerset.sigs.k8s.io/name=vllm-ds', '-n', 'llm'],
      { env: kubectl.env },
    );
    expect(text.stdout).toContain('died because a peer did (waiting on vllm-ds-0)');
    expect(text.stdout).toContain('4 of 4 failed, 1 root cause');
  });
});

describe('fleet flags', () => {
  it.each([
    [
      ['diagnose', '--kube', '-l', 'app=x', '-n', 'llm', '--all-namespaces'],
      'give -n NAMESPACE or --all-namespaces, not both',
    ],
    [['diagnose', '--kube', 'pod-0', '--since', '1h'], '--since goes with --unit or --docker, not --kube'],
    [['diagnose', 'a.log', '--previous'], '--previous goes with --kube'],
    [['diagnose', 'a.log', '-n', 'llm', '--container', 'vllm'], '--namespace, --container go with --kube'],
    [
      ['diagnose', '--kube', '-l', '--all'],
      'invalid label selector "--all": use key=value pairs joined by commas, e.g. -l app=vllm',
    ],
    [['diagnose', '--kube'], '--kube needs a POD, or -l SELECTOR for many'],
  ])('%j is refused in one line', async (argv, message) => {
    const kubectl = await standInKubectl('rollout-8-pods');
    const result = await runCliCaptured(argv, { env: kubectl.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`vigil: ${message}\n`);
  });
});
