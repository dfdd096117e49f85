import { describe, expect, it } from 'vitest';
import { diagnose } from '../diagnosis/index.js';
import { describeAllClear } from './describe-health.js';
import { createPaint } from './paint.js';
import { renderText } from './render-text.js';
import { renderMarkdown } from './render-markdown.js';

const plain = createPaint(false);
const READY =
  'INFO:     Application startup complete.\nINFO 12-01 10:00:09 [metrics.py:1] Avg prompt throughput: 1.0 tokens/s\n';
const LOADING = 'INFO 12-01 10:00:01 [model_runner.py:2] Loading model weights\n';

describe('a report of no failure', () => {
  it.each([
    ['a ready server', READY, true, '✔ no failure found'],
    [
      'a log that ends while loading',
      LOADING,
      false,
      '– no failure line found, and no sign the server became ready',
    ],
  ])('%s', (_name, log, healthy, headline) => {
    const d = diagnose(log);
    expect(describeAllClear(d).healthy).toBe(healthy);
    const text = renderText(d, plain);
    expect(text.startsWith(headline)).toBe(true);
    // Where to look for a silent death is said only where the log shows no health.
    expect(text.includes('journalctl -k')).toBe(!healthy);
    expect(renderMarkdown(d).includes('no sign the server became ready')).toBe(!healthy);
  });
});
