import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { diagnosisSchema, type DiagnosisJson } from './diagnosis-schema.js';
import {
  expectErrorOrWarnedResult,
  expectNoTrace,
  expectOneLineError,
  expectResult,
  runVigil,
  spawnVigil,
  tempDir,
  writeFiles,
  type CliResult,
} from './cli-harness.js';
import { AFTERMATH, workerTraceback } from './fixtures.js';

const CRASH = [...workerTraceback(0, 2211), ...workerTraceback(1, 2212), ...AFTERMATH];
const FLASHINFER = /flashinfer-cubin version \(0\.6\.3\) does not match flashinfer version \(0\.6\.4\)/;
const isRoot = process.getuid?.() === 0;

function parseJson(result: CliResult): DiagnosisJson {
  expectResult(result);
  return diagnosisSchema.parse(JSON.parse(result.stdout));
}

async function diagnoseFile(
  name: string,
  contents: string | Uint8Array,
  ...flags: string[]
): Promise<CliResult> {
  const dir = await writeFiles({ [name]: contents });
  return runVigil(['diagnose', join(dir, name), ...flags]);
}

describe('vigil diagnose on hostile bytes', () => {
  it.each(['json', 'text', 'markdown'])(
    'random binary (--format %s): one line, exit 2, no report',
    async (format) => {
      const result = await diagnoseFile('random.bin', randomBytes(256 * 1024), '--format', format);
      expectOneLineError(result, /random\.bin is binary data, not a text log/);
      expect(result.stdout).toBe('');
    },
  );

  it('invalid UTF-8 inside a traceback: the root cause is still found', async () => {
    const bytes = Buffer.concat(
      CRASH.map((line, i) =>
        Buffer.concat([
          Buffer.from(line),
          i % 3 === 0 ? Buffer.from([0xff, 0xc3, 0x28, 0xed, 0xa0, 0x80]) : Buffer.alloc(0),
          Buffer.from('\n'),
        ]),
      ),
    );
    const diagnosis = parseJson(await diagnoseFile('invalid-utf8.log', bytes, '--format', 'json'));
    expect(diagnosis.rootCause?.message).toMatch(FLASHINFER);
  });

  it('a lone invalid byte in the root-cause message', async () => {
    const text = CRASH.join('\n').replace('Please install', 'Please \xff install');
    const bytes = Buffer.from(text, 'latin1');
    const diagnosis = parseJson(await diagnoseFile('latin1.log', bytes, '--format', 'json'));
    expect(diagnosis.verdict).toBe('failure');
  });

  it('NUL bytes between and inside lines', async () => {
    const text = CRASH.map((line) => `\0${line.replace(' ERROR ', ' ERROR\0 ')}`).join('\n\0\0\n');
    const result = await diagnoseFile('nul.log', text, '--format', 'json');
    const diagnosis = parseJson(result);
    expect(diagnosis.verdict).toBe('failure');
    expect(result.stdout).not.toContain('\0');
  });

  it.each([
    ['CRLF', '\r\n'],
    ['lone CR', '\r'],
  ])('%s line ends give the same root cause as LF', async (_name, eol) => {
    const lf = parseJson(await diagnoseFile('lf.log', `${CRASH.join('\n')}\n`, '--format', 'json'));
    const other = parseJson(await diagnoseFile('other.log', `${CRASH.join(eol)}${eol}`, '--format', 'json'));
    expect(other.rootCause?.message).toMatch(FLASHINFER);
    expect(other.rootCause?.message).toBe(lf.rootCause?.message);
    expect(other.rootCause?.lineNumber).toBe(lf.rootCause?.lineNumber);
    expect(other.rootCause?.line).not.toMatch(/\r/);
    expect(other.input.lines).toBe(lf.input.lines);
  });

  it('carriage-return progress bars before a crash', async () => {
    const progress = Array.from(
      { length: 50 },
      (_, i) => `Loading safetensors checkpoint shards: ${i * 2}% Completed`,
    ).join('\r');
    const diagnosis = parseJson(
      await diagnoseFile('progress.log', `${progress}\r\n${CRASH.join('\n')}\n`, '--format', 'json'),
    );
    expect(diagnosis.rootCause?.message).toMatch(FLASHINFER);
  });

  it.each(['json', 'text'])(
    'an empty file (--format %s): one line, exit 2, never "no failure"',
    async (format) => {
      const result = await diagnoseFile('empty.log', '', '--format', format);
      expectOneLineError(result, /empty\.log is empty/);
      expect(result.stdout).toBe('');
    },
  );

  it('binary on stdin: one line, exit 2', async () => {
    const result = await runVigil(['diagnose', '-', '--format', 'json'], { stdin: randomBytes(32 * 1024) });
    expectOneLineError(result, /^vigil: stdin is binary data/);
  });

  it('stdin that fails mid-stream: exit 2, one line', async () => {
    let sent = false;
    const stdin = new Readable({
      read() {
        if (!sent) {
          sent = true;
          this.push(Buffer.from(CRASH.join('\n')));
        } else {
          this.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
        }
      },
    });
    expectOneLineError(await runVigil(['diagnose', '-'], { stdin }), /stdin|standard input|EIO|i\/o/i);
  });
});

describe('vigil diagnose on a line of many MiB without a newline', () => {
  const MIB = 2 ** 20;

  async function oneLineFile(mib: number): Promise<string> {
    const dir = await tempDir();
    const path = join(dir, 'one-line.log');
    const handle = await open(path, 'w');
    const block = Buffer.alloc(MIB, 'x');
    for (let i = 0; i < mib; i++) await handle.write(block);
    await handle.close();
    return path;
  }

  /** Peak RSS of `vigil diagnose FILE` above that of diagnosing an empty file, in MiB. */
  async function rssGrowthMib(path: string): Promise<number> {
    const empty = await writeFiles({ 'empty.log': '' });
    const baseline = await spawnVigil(['diagnose', join(empty, 'empty.log')]);
    const big = await spawnVigil(['diagnose', path]);
    expectResult(big);
    expect(big.code).toBe(0);
    expect(Number.isFinite(big.maxRssBytes)).toBe(true);
    return (big.maxRssBytes - baseline.maxRssBytes) / MIB;
  }

  it('64 MiB: the line is cut for analysis and counted', async () => {
    const diagnosis = parseJson(await runVigil(['diagnose', await oneLineFile(64), '--format', 'json']));
    expect(diagnosis.input.bytes).toBe(64 * MIB);
    expect(diagnosis.input.lines).toBe(1);
    expect(diagnosis.input.truncatedLines).toBe(1);
    expect(diagnosis.verdict).toBe('no-failure');
  }, 120_000);

  // Measured at about +80 MiB for 64 MiB and +90 MiB for 256 MiB (buffers awaiting GC). Holding the line,
  // as a buffer and a string, would add twice the input: the 256 MiB case tells the two apart.
  it('64 MiB in a real process: completes with modest memory growth', async () => {
    const growth = await rssGrowthMib(await oneLineFile(64));
    expect(growth, `peak RSS grew by ${growth.toFixed(0)} MiB`).toBeLessThan(160);
  }, 180_000);

  it('256 MiB in a real process: memory does not grow with the line', async () => {
    const growth = await rssGrowthMib(await oneLineFile(256));
    expect(growth, `peak RSS grew by ${growth.toFixed(0)} MiB`).toBeLessThan(256);
  }, 180_000);
});

describe('vigil diagnose on files it cannot read', () => {
  it('a missing file: exit 2, one line naming it', async () => {
    const dir = await tempDir();
    expectOneLineError(await runVigil(['diagnose', join(dir, 'no-such.log')]), /no-such\.log/);
  });

  it('a folder: exit 2, one line naming it', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'logs'));
    expectOneLineError(await runVigil(['diagnose', join(dir, 'logs')]), /logs/);
  });

  it('a missing file among good ones: exit 2, one line', async () => {
    const dir = await writeFiles({ 'good.log': CRASH.join('\n') });
    expectOneLineError(
      await runVigil(['diagnose', join(dir, 'good.log'), join(dir, 'gone.log')]),
      /gone\.log/,
    );
  });

  it.skipIf(isRoot)(
    'a file without read permission: exit 2, one line (skipped as root, who reads it anyway)',
    async () => {
      const dir = await writeFiles({ 'secret.log': CRASH.join('\n') });
      await chmod(join(dir, 'secret.log'), 0o000);
      expectOneLineError(await runVigil(['diagnose', join(dir, 'secret.log')]), /secret\.log/);
    },
  );

  // Root reads a mode-000 file; /proc/self/mem opens for anyone but fails on read (EIO), as a bad disk would.
  it.skipIf(process.platform !== 'linux')(
    'a file whose read fails (/proc/self/mem): exit 2, one line',
    async () => {
      expectOneLineError(await runVigil(['diagnose', '/proc/self/mem']), /\/proc\/self\/mem/);
    },
  );

  it('a truncated gzip: one error line, or the part before the cut with a warning', async () => {
    const gz = gzipSync(Buffer.from(`${CRASH.join('\n')}\n`.repeat(20)));
    const result = await diagnoseFile(
      'cut.log.gz',
      gz.subarray(0, Math.floor(gz.length * 0.6)),
      '--format',
      'json',
    );
    expectErrorOrWarnedResult(result, /truncat|incomplete|unexpected end|corrupt/i);
    if (result.code !== 2) expect(parseJson(result).rootCause?.message).toMatch(FLASHINFER);
  });

  it.each(['text', 'json', 'markdown'])(
    'a truncated gzip: the warning shows in the %s report',
    async (format) => {
      const gz = gzipSync(Buffer.from(`${CRASH.join('\n')}\n`.repeat(20)));
      const result = await diagnoseFile(
        'cut.log.gz',
        gz.subarray(0, Math.floor(gz.length * 0.6)),
        '--format',
        format,
      );
      expectErrorOrWarnedResult(result, /truncat|ends early|incomplete|unexpected end/i);
    },
  );

  it('a .gz name on plain text: read by its content, or one error line', async () => {
    const result = await diagnoseFile('plain.log.gz', `${CRASH.join('\n')}\n`, '--format', 'json');
    expectNoTrace(result.stderr);
    if (result.code === 2) expectOneLineError(result);
    else expect(parseJson(result).rootCause?.message).toMatch(FLASHINFER);
  });

  it('a gzip header followed by garbage: one error line, or a result with a warning', async () => {
    const bytes = Buffer.concat([
      Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0x03]),
      randomBytes(4096),
    ]);
    expectErrorOrWarnedResult(await diagnoseFile('garbage.log.gz', bytes), /gzip|corrupt|invalid|truncat/i);
  });

  it('gzip with garbage after the stream: no trace', async () => {
    const gz = Buffer.concat([gzipSync(Buffer.from(CRASH.join('\n'))), randomBytes(1000)]);
    const result = await diagnoseFile('trailing.log.gz', gz, '--format', 'json');
    expectErrorOrWarnedResult(result, /gzip|trailing|corrupt|garbage/i);
  });
});

describe('vigil diagnose in a real process', () => {
  it('random binary: exit 2, one line', async () => {
    const dir = await writeFiles({ 'random.bin': randomBytes(128 * 1024) });
    expectOneLineError(await spawnVigil(['diagnose', join(dir, 'random.bin')]), /not a text log/);
  });

  it('a missing file: exit 2, one line', async () => {
    const dir = await tempDir();
    expectOneLineError(await spawnVigil(['diagnose', join(dir, 'missing.log')]), /missing\.log/);
  });

  it('binary on stdin: exit 2, one line', async () => {
    expectOneLineError(await spawnVigil(['diagnose', '-'], { stdin: randomBytes(64 * 1024) }), /binary/);
  });

  it('a crash with CRLF on stdin: exit 1', async () => {
    const result = await spawnVigil(['diagnose', '-', '--format', 'json'], { stdin: CRASH.join('\r\n') });
    expect(parseJson(result).rootCause?.message).toMatch(FLASHINFER);
    expect(result.code).toBe(1);
  });
});

describe('usage errors', () => {
  it.each([
    [['diagnose', '--no-such-flag']],
    [['diagnose', 'x.log', '--format', 'yaml']],
    [['no-such-command']],
  ])('%j: exit 2, one line', async (argv) => {
    expectOneLineError(await runVigil(argv));
  });
});
