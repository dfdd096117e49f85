import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SourceSpec } from '../sources/index.js';
import { isShortLog, SHORT_LOG_BYTES, withBaselineCode } from './short-log.js';

const folder = mkdtempSync(join(tmpdir(), 'vigil-short-log-'));
const small = join(folder, 'small.log');
const edge = join(folder, 'edge.log');
const large = join(folder, 'large.log');
writeFileSync(small, 'Feb 20 23:31:07 host vllm[1]: RuntimeError: x\n');
writeFileSync(edge, '');
truncateSync(edge, SHORT_LOG_BYTES);
writeFileSync(large, '');
truncateSync(large, SHORT_LOG_BYTES + 1);
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const files = (...paths: string[]): SourceSpec => ({ kind: 'files', paths });

describe('isShortLog', () => {
  it.each<[string, SourceSpec, boolean, boolean]>([
    ['one small plain file', files(small), true, true],
    ['exactly the limit', files(edge), true, true],
    ['one byte past it', files(large), true, false],
    ['a file not read straight in (gzip, a device)', files(small), false, false],
    ['two files', files(small, small), true, false],
    ['stdin', files('-'), true, false],
    ['a folder', files(folder), true, false],
    ['a missing file', files(join(folder, 'missing.log')), true, false],
    ['a unit', { kind: 'unit', unit: 'vllm' }, true, false],
  ])('%s', (_name, spec, readsInto, short) => {
    expect(isShortLog(spec, readsInto)).toBe(short);
  });
});

describe('withBaselineCode', () => {
  it('gives what the reading gives, and its error', async () => {
    await expect(withBaselineCode(() => Promise.resolve(42))).resolves.toBe(42);
    await expect(withBaselineCode(() => Promise.reject(new Error('unreadable')))).rejects.toThrow(
      'unreadable',
    );
  });
});
