import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSharedObjects } from '../../src/environment/read-shared-objects.js';
import { makeDistribution } from '../check/helpers/make-context.js';
import { makeTempDir } from '../check/helpers/write-environment.js';
import { buildElf } from './helpers/build-elf.js';

let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

describe('readSharedObjects: the .so files RECORD lists, read from disk', () => {
  it('reads ELF files and says why each of the others could not be read, without hanging on a pipe', () => {
    const site = dir.path;
    mkdirSync(join(site, 'pkg'));
    writeFileSync(
      join(site, 'pkg/_C.so'),
      buildElf({ needed: ['libc10.so'], fatbin: [[{ kind: 'sass', arch: 90 }]] }),
    );
    writeFileSync(join(site, 'pkg/script.so'), 'INPUT(-lfoo)\n');
    writeFileSync(join(site, 'pkg/cut.so'), buildElf({ needed: ['libc.so.6'] }).subarray(0, 100));
    mkdirSync(join(site, 'pkg/folder.so'));
    symlinkSync('/dev/zero', join(site, 'pkg/device.so'));
    const fifo = spawnSync('mkfifo', [join(site, 'pkg/pipe.so')]).status === 0;
    const files = [
      '_C.so',
      'script.so',
      'cut.so',
      'folder.so',
      'device.so',
      'missing.so',
      ...(fifo ? ['pipe.so'] : []),
    ];
    const distribution = makeDistribution(
      { name: 'pkg', version: '1.0', files: [...files.map((name) => `pkg/${name}`), 'pkg/__init__.py'] },
      site,
    );
    const readings = readSharedObjects([distribution]);
    const reasons = Object.fromEntries(readings.map((reading) => [reading.path, reading.unreadable]));
    expect(readings.find((reading) => reading.path === 'pkg/_C.so')?.facts?.fatbin?.sass).toEqual([90]);
    expect(reasons).toMatchObject({
      'pkg/_C.so': null,
      'pkg/script.so': expect.stringContaining('not an ELF file') as string,
      'pkg/cut.so': expect.stringContaining('past the end of the file') as string,
      'pkg/folder.so': 'not a regular file',
      'pkg/device.so': 'not a regular file',
      'pkg/missing.so': 'listed in RECORD but missing',
    });
    if (fifo) expect(reasons['pkg/pipe.so']).toBe('not a regular file');
    expect(readings.map((reading) => reading.path)).not.toContain('pkg/__init__.py');
  });
});
