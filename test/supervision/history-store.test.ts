import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendStart,
  historyKey,
  historyPath,
  readHistory,
  startsOf,
} from '../../src/supervision/history-store.js';
import { tempDir } from './helpers/supervise-fixture.js';

const record = (readyMs: number) => ({
  at: new Date(readyMs).toISOString(),
  engine: 'vllm' as const,
  readyMs,
  phases: [{ id: 'loading-weights', atMs: 1000 }],
});

describe('history store', () => {
  it('lives under the XDG state folder', () => {
    expect(historyPath({ XDG_STATE_HOME: '/srv/state', HOME: '/home/a' })).toBe(
      '/srv/state/vigil/history.json',
    );
    expect(historyPath({ HOME: '/home/a' })).toBe('/home/a/.local/state/vigil/history.json');
    // A relative XDG_STATE_HOME is invalid per the spec and ignored.
    expect(historyPath({ XDG_STATE_HOME: 'rel', HOME: '/home/a' })).toBe(
      '/home/a/.local/state/vigil/history.json',
    );
  });

  it('appends starts per command, keeps the last ten, and writes through a rename', async () => {
    const path = join(tempDir(), 'state', 'vigil', 'history.json');
    const key = historyKey('vllm', ['serve', 'm']);
    for (let run = 1; run <= 12; run += 1) await appendStart(path, key, record(run * 1000));
    await appendStart(path, historyKey('vllm', ['serve', 'other']), record(5));
    const history = await readHistory(path);
    expect(startsOf(history, key).map((start) => start.readyMs)).toEqual(
      [3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => n * 1000),
    );
    expect(Object.keys(history.commands)).toHaveLength(2);
    expect(readdirSync(join(path, '..'))).toEqual(['history.json']);
  });

  it('keeps the fifty commands used last, whatever order they were first used in', async () => {
    const path = join(tempDir(), 'state', 'vigil', 'history.json');
    // Each first used after the one before, then the first of all used again: the file holds them in the
    // order of first use, which must not decide which go.
    for (let n = 51; n >= 1; n -= 1) {
      await appendStart(
        path,
        historyKey('vllm', ['serve', `m${n}`]),
        record(Date.UTC(2026, 0, 1, 0, 0, 60 - n)),
      );
    }
    await appendStart(path, historyKey('vllm', ['serve', 'm51']), record(Date.UTC(2026, 0, 2)));
    const kept = Object.keys((await readHistory(path)).commands);
    expect(kept).toHaveLength(50);
    expect(kept).toContain(historyKey('vllm', ['serve', 'm51']));
    expect(kept).toContain(historyKey('vllm', ['serve', 'm1']));
    expect(kept).not.toContain(historyKey('vllm', ['serve', 'm50']));
  });

  it('treats a torn or foreign file as an empty history', async () => {
    const dir = join(tempDir(), 'vigil');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, 'history.json');
    writeFileSync(path, '{"version":1,"commands":{"x":');
    expect(await readHistory(path)).toEqual({ version: 1, commands: {} });
    await appendStart(path, 'k', record(7));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({
      version: 1,
      commands: { k: { runs: [{ readyMs: 7 }] } },
    });
  });
});

describe('history key', () => {
  it('stores no --api-key, --hf-token or token value', () => {
    const key = historyKey('vllm', [
      'serve',
      'm',
      '--api-key',
      'k3y-0123456789abcdef',
      '--hf-token=hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567',
      '--token',
      'sekrit99',
      '--port',
      '8000',
    ]);
    expect(key).not.toMatch(/k3y-0123456789abcdef|AbCdEfGhIjKlMnOpQrStUvWxYz01234567|sekrit99/);
    expect(key.split('\u0000')).toEqual([
      'vllm',
      'serve',
      'm',
      '--api-key',
      '[REDACTED]',
      '--hf-token=[REDACTED]',
      '--token',
      '[REDACTED]',
      '--port',
      '8000',
    ]);
  });
});

describe('concurrent starts', () => {
  it('keeps every record of 24 vigils finishing at once', async () => {
    const path = join(tempDir(), 'state', 'vigil', 'history.json');
    await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        appendStart(path, historyKey('vllm', [`m${index}`]), record(index)),
      ),
    );
    const history = await readHistory(path);
    expect(Object.keys(history.commands)).toHaveLength(24);
    expect(readdirSync(join(path, '..'))).toEqual(['history.json']);
  });
});
