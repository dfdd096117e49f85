import { describe, expect, it } from 'vitest';
import { createProgressTracker } from '../../src/progress/index.js';
import { createProgressDisplay } from '../../src/supervision/progress-display.js';

function sink(): { text: string; write(chunk: Uint8Array | string): void } {
  return {
    text: '',
    write(chunk) {
      this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    },
  };
}

const tracker = createProgressTracker({ engine: 'vllm' });
tracker.push('INFO 05-12 09:14:19 [gpu_model_runner.py:1329] Starting to load model m...', 1000);

describe('createProgressDisplay', () => {
  it('prints one plain line per new phase when not on a terminal', () => {
    const out = sink();
    const display = createProgressDisplay({ out, redraw: false, history: [] });
    display.update(tracker.state(), 1000);
    display.update(tracker.state(), 2000);
    display.say('vigil: ready after 2s');
    display.close();
    expect(out.text).toBe('vigil: loading weights · 1s\nvigil: ready after 2s\n');
  });

  it('redraws in place on a terminal and wipes the line before the server’s output', () => {
    const out = sink();
    const server = sink();
    const display = createProgressDisplay({ out, redraw: true, history: [] });
    display.update(tracker.state(), 1000);
    expect(out.text.startsWith('\r\u001b[2Kvigil: loading weights · ')).toBe(true);
    display.wrap(server).write('INFO line\n');
    expect(out.text.endsWith('\r\u001b[2K')).toBe(true);
    expect(server.text).toBe('INFO line\n');
    display.close();
  });
});
