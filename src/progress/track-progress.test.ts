import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createProgressTracker, engineOfCommand, type ProgressState } from './track-progress.js';

function follow(fixture: string, options: Parameters<typeof createProgressTracker>[0] = {}): ProgressState {
  const text = readFileSync(new URL(`fixtures/${fixture}`, import.meta.url), 'utf8');
  const tracker = createProgressTracker(options);
  text.split(/\r\n|\r|\n/).forEach((line, index) => tracker.push(line, index * 1000));
  return tracker.state();
}

const phasesOf = (state: ProgressState): string[] => state.visits.map((visit) => visit.id);

describe('createProgressTracker on real-format start-ups', () => {
  it('follows a vLLM V1 start through every milestone to ready', () => {
    const state = follow('vllm-v1-single-gpu-start.log');
    expect(state.engine).toBe('vllm');
    expect(phasesOf(state)).toEqual([
      'arguments',
      'model-config',
      'loading-weights',
      'weights-loaded',
      'memory-profiling',
      'kv-cache',
      'cuda-graphs',
      'api-server',
    ]);
    expect(state.facts).toMatchObject({
      shard: 4,
      shards: 4,
      weightsGiB: 14.2487,
      kvCacheTokens: 344976,
      graphSeconds: 23,
    });
    expect(state.readyAtMs).not.toBeNull();
  });

  it('reads a vLLM V0 start: weights in GB, GPU blocks, cudagraph capture', () => {
    const state = follow('vllm-v0-memory-profiling-start.log');
    expect(phasesOf(state)).toEqual([
      'arguments',
      'model-config',
      'loading-weights',
      'weights-loaded',
      'kv-cache',
      'cuda-graphs',
      'api-server',
    ]);
    expect(state.facts).toMatchObject({ weightsGiB: 14.9888, gpuBlocks: 27923, graphSeconds: 12 });
  });

  it('does not go back when tensor-parallel ranks repeat milestones', () => {
    const state = follow('vllm-tp2-engine-init-healthy.log');
    expect(phasesOf(state)).toEqual([
      'model-config',
      'loading-weights',
      'weights-loaded',
      'memory-profiling',
      'kv-cache',
      'cuda-graphs',
    ]);
    expect(state.readyAtMs).toBeNull();
  });

  it('follows SGLang to "fired up and ready to roll", not to uvicorn’s startup line', () => {
    const state = follow('sglang-tp4-qwq-healthy.log');
    expect(state.engine).toBe('sglang');
    expect(phasesOf(state)).toEqual([
      'arguments',
      'distributed',
      'loading-weights',
      'weights-loaded',
      'kv-cache',
      'cuda-graphs',
      'api-server',
    ]);
    expect(state.facts).toMatchObject({ shard: 14, shards: 14, weightsGiB: 15.54, kvCacheTokens: 46611 });
    const ready = state.readyAtMs ?? -1;
    const apiServer = state.visits.at(-1)?.atMs ?? Infinity;
    expect(ready).toBeGreaterThan(apiServer);
  });

  it('follows TGI from the download to the router’s "Connected"', () => {
    const state = follow('tgi-sharded-llama3-healthy.log');
    expect(phasesOf(state)).toEqual([
      'download',
      'weights-present',
      'loading-weights',
      'shards-ready',
      'webserver',
      'warmup',
      'kv-cache',
    ]);
    expect(state.facts.kvCacheTokens).toBe(801568);
    expect(state.readyAtMs).not.toBeNull();
  });

  it('follows llama-server through offload, KV cache and warm-up to listening', () => {
    const state = follow('llamacpp-server-gpu-start.log');
    expect(phasesOf(state)).toEqual(['arguments', 'loading-weights', 'kv-cache', 'warmup', 'model-loaded']);
    expect(state.facts).toMatchObject({ layersOffloaded: 29, layers: 29 });
    expect(state.readyAtMs).not.toBeNull();
  });

  it('calls ollama ready when it listens', () => {
    const state = follow('ollama-serve-start.log');
    expect(phasesOf(state)).toEqual(['arguments', 'blobs']);
    expect(state.readyAtMs).toBe(3000);
  });

  it('leaves readiness to the health probe when asked', () => {
    const state = follow('vllm-v1-single-gpu-start.log', { readyFromLog: false });
    expect(state.readyAtMs).toBeNull();
  });

  it('knows the engine from the command before any line', () => {
    const tracker = createProgressTracker({ command: ['vllm', 'serve', 'Qwen/Qwen2.5-7B-Instruct'] });
    expect(tracker.state().engine).toBe('vllm');
  });

  it('splits nothing itself and survives lines it does not know', () => {
    const tracker = createProgressTracker();
    expect(tracker.push('hello', 0)).toBe(false);
    expect(tracker.push('', 1)).toBe(false);
    expect(tracker.state()).toMatchObject({ engine: null, phase: null, lines: 2 });
  });
});

describe('engineOfCommand', () => {
  it.each([
    [['vllm', 'serve', 'm'], 'vllm'],
    [['/opt/venv/bin/vllm', 'serve', 'm'], 'vllm'],
    [['python3', '-m', 'vllm.entrypoints.openai.api_server'], 'vllm'],
    [['python3', '-m', 'sglang.launch_server', '--model-path', 'm'], 'sglang'],
    [['text-generation-launcher', '--model-id', 'm'], 'tgi'],
    [['./llama-server', '-m', 'm.gguf'], 'llamacpp'],
    [['/usr/local/bin/ollama', 'serve'], 'ollama'],
    [['node', 'server.js'], null],
  ])('%j → %s', (command, engine) => {
    expect(engineOfCommand(command)).toBe(engine);
  });
});
