import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/environment/index.js';
import { buildElf, type ElfSpec } from '../elf/helpers/build-elf.js';
import { makeTempDir, writeEnvironment } from './helpers/write-environment.js';

let dir: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  dir = makeTempDir();
});
afterEach(() => dir.remove());

const SYM_NE = '_ZNK3c106SymInt6sym_neERKS0_';

/** torch with libc10.so and libtorch_cpu.so, and an extension built against some torch. */
async function check(extension: ElfSpec, c10Exports: string[]) {
  const { sitePackages } = writeEnvironment(join(dir.path, 'venv'), [
    { name: 'torch', version: '2.9.0', files: ['torch/lib/libc10.so', 'torch/lib/libtorch_cpu.so'] },
    { name: 'flash-attn', version: '2.8.3', files: ['flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so'] },
  ]);
  const write = (path: string, spec: ElfSpec) => {
    mkdirSync(dirname(join(sitePackages, path)), { recursive: true });
    writeFileSync(join(sitePackages, path), buildElf(spec));
  };
  write('torch/lib/libc10.so', { soname: 'libc10.so', exported: c10Exports });
  write('torch/lib/libtorch_cpu.so', {
    soname: 'libtorch_cpu.so',
    needed: ['libc10.so'],
    exported: ['_ZN2at4_ops3add4callEv'],
  });
  write('flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so', extension);
  const report = await runCheck({ sitePackages: [sitePackages], env: { PATH: '' } });
  return report.findings.filter((finding) => finding.id === 'undefined-torch-symbol');
}

describe('undefined-torch-symbol on ELF files written to a site-packages tree', () => {
  const extension: ElfSpec = {
    needed: ['libc10.so', 'libtorch_cpu.so', 'libc.so.6'],
    undefinedSymbols: [SYM_NE, '_ZN2at4_ops3add4callEv', 'malloc'],
  };

  it('names the symbol the installed torch lacks and the library it should come from', async () => {
    const [finding, ...rest] = await check(extension, ['_ZN3c106SymIntD1Ev']);
    expect(rest).toEqual([]);
    expect(finding?.detail).toContain('flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so (flash-attn 2.8.3)');
    expect(finding?.detail).toContain(`undefined symbol: ${SYM_NE}`);
    expect(finding?.detail).toContain('expected from libc10.so');
    expect(finding?.detail).not.toContain('_ZN2at4_ops3add4callEv');
    expect(finding?.fix).toContain('--no-build-isolation');
  });

  it('is silent when torch exports every c10/at/torch symbol the extension needs', async () => {
    expect(await check(extension, [SYM_NE])).toEqual([]);
  });
});
