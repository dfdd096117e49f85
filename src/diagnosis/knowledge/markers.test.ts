import { describe, expect, it } from 'vitest';
import { START_MARKERS, isDeathMarker, startMarkerOf } from './markers.js';

// Which lines begin a start: systemd's description-only start line (`journalctl -o cat`) names a server or
// a service; a test driver's or a benchmark's `Starting ...` starts none.
describe('startMarkerOf', () => {
  it.each<[string, string | null, boolean]>([
    ['Starting vLLM server...', null, true],
    ['Starting Ollama Service...', null, true],
    ['Starting LLM inference daemon...', null, true],
    ['Starting vllm-qwen.service - vLLM OpenAI API server...', null, true],
    ['Starting gsm8k test...', null, false],
    ['Starting warmup with 1 sequences...', null, false],
    ['Starting router in thread...', null, false],
    ['Starting vLLM server...', 'INFO', false],
    ['Starting to monitor logs for Pod: sglang-0', null, false],
    // vLLM's later banner: its name in block letters, the version beside them.
    [' ▄▄ ▄█ █     █     █ ▀▄▀ █  version 0.21.0', 'INFO', true],
    ['  █▄█▀ █     █     █     █  model   Qwen/Qwen2.5-0.5B-Instruct', 'INFO', false],
  ])('%j (level %s): a start %s', (text, level, starts) => {
    const mark = startMarkerOf(text, level);
    expect(mark !== -1, String(START_MARKERS[mark])).toBe(starts);
  });
});

describe('isDeathMarker', () => {
  it.each<[string, boolean]>([
    ['Shard 0 crashed, Shutting down shards', true],
    ['INFO:     Finished server process [1234] and exiting', true],
    ['Engine loop is dead', true],
    ['Monitoring completed successfully. Script exiting.', false],
    ['All workers exited successfully', false],
    // A deprecation warning's source line quotes the word (fresh-n vllm-h4150).
    ['  @app.on_event("shutdown")', false],
    ['[shutdown] API server: shutdown triggered', true],
  ])('%j: %s', (text, death) => {
    expect(isDeathMarker(text)).toBe(death);
  });
});
