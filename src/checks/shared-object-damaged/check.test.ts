import { describe, expect, it } from 'vitest';
import type { SharedObjectReading } from '../../environment/read-shared-objects.js';
import { makeContext } from '../../../test/check/helpers/make-context.js';
import check from './check.js';

const reading = (path: string, unreadable: string | null, missing = false): SharedObjectReading => ({
  distribution: 'flashinfer-python',
  version: '0.6.4',
  path,
  facts: null,
  unreadable,
  missing,
});

describe('shared-object-damaged', () => {
  it('errs for a cut-short or non-ELF library, naming each file and why', () => {
    const [problem, ...rest] = check.run(
      makeContext([{ name: 'flashinfer-python', version: '0.6.4', installer: 'uv' }], {
        sharedObjects: [
          reading(
            'flashinfer/_kernels.so',
            'the section header table at byte 9000 (448 bytes) lies past the end of the file (4096 bytes)',
          ),
          reading('flashinfer/_ok.so', null),
          reading('flashinfer/_text.so', 'not an ELF file (no \\x7fELF magic)'),
        ],
      }),
    );
    expect(rest).toEqual([]);
    expect(problem?.severity ?? 'error').toBe('error');
    expect(problem?.detail).toContain('flashinfer/_kernels.so (the section header table');
    expect(problem?.detail).toContain('flashinfer/_text.so (not an ELF file');
    expect(problem?.fix).toBe('uv pip install flashinfer-python==0.6.4 --force-reinstall --no-deps');
  });

  it('leaves a library RECORD lists but that is absent alone', () => {
    const sharedObjects = [reading('flashinfer/_gone.so', 'listed in RECORD but missing', true)];
    expect(check.run(makeContext([], { sharedObjects }))).toEqual([]);
  });

  it('is silent when every library reads, or none were read', () => {
    expect(check.run(makeContext([], { sharedObjects: [reading('a.so', null)] }))).toEqual([]);
    expect(check.run(makeContext([], { sharedObjects: null }))).toEqual([]);
  });
});
