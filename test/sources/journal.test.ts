import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { SourceError, UsageError } from '../../src/errors.js';
import { openSource } from '../../src/sources/index.js';
import { readAll, tempDir } from './helpers/fake-command.js';
import {
  entriesFromShortLog,
  invocationIdFor,
  JOURNAL_REMOTE,
  TEST_BOOT_ID,
  writeJournalFile,
  type JournalFields,
} from './helpers/write-journal.js';

const EXAMPLE = new URL('../../examples/vllm-kimi-k25-flashinfer-mismatch.journal.log', import.meta.url);
const UNIT = 'vllm-kimi-k25.service';
const SHORT_FORMAT = /^[A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} \S+ [^\s[]+(\[\d+\])?: /;
const io = { stdin: Readable.from([]), env: process.env };

async function journalOf(entries: JournalFields[]): Promise<string> {
  const file = join(await tempDir(), 'test.journal');
  await writeJournalFile(entries, file);
  return file;
}

async function readUnit(unit: string, file: string) {
  const source = await openSource({ kind: 'unit', unit, journalFile: [file] }, io);
  return { source, text: await readAll(source.chunks) };
}

/** Entries of one unit; `starts` lists per invocation its app messages and how it ended. */
function unitEntries(starts: { app: string[]; end?: string }[]): JournalFields[] {
  const lines: string[] = [];
  let second = 10;
  const at = (): string => `Mar 01 10:00:${String((second += 1)).padStart(2, '0')}`;
  starts.forEach((start, n) => {
    lines.push(`${at()} gpu1 systemd[1]: Starting demo.service - Demo...`);
    for (const message of start.app) lines.push(`${at()} gpu1 demo[${100 + n}]: ${message}`);
    if (start.end !== undefined) lines.push(`${at()} gpu1 systemd[1]: demo.service: ${start.end}`);
  });
  return entriesFromShortLog(lines.join('\n'), { unit: 'demo.service' });
}

describe.runIf(JOURNAL_REMOTE !== undefined)('unit journal through journalctl', () => {
  let exampleText = '';
  let exampleJournal = '';
  beforeAll(async () => {
    exampleText = await readFile(EXAMPLE, 'utf8');
    exampleJournal = join(await tempDirForSuite(), 'vllm-kimi-k25.journal');
    await writeJournalFile(entriesFromShortLog(exampleText, { unit: UNIT }), exampleJournal);
  });

  it('keeps the last failed invocation of the bundled incident and every systemd line', async () => {
    const { source, text } = await readUnit('vllm-kimi-k25', exampleJournal);
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(SHORT_FORMAT);

    const original = exampleText.trimEnd().split('\n');
    const secondStart = original.findLastIndex((line) => line.includes('systemd[1]: Starting '));
    const expected = original.filter((line, i) => line.includes(' systemd[1]: ') || i > secondStart);
    expect(lines).toEqual(expected);
    expect(lines.filter((line) => line.includes('Main process exited'))).toHaveLength(2);
    expect(lines.some((line) => line.includes('(APIServer pid=12345)'))).toBe(false);
    expect(
      lines.filter((line) => line.includes('RuntimeError: flashinfer-cubin version (0.6.3)')),
    ).toHaveLength(8);
    expect(source).toMatchObject({
      unit: UNIT,
      formats: ['journal-json'],
      describe: `journal of ${UNIT}, last failed invocation ${invocationIdFor(1).slice(0, 8)}, Feb 20 23:31:56-23:32:39 (2 of 2 invocations failed)`,
      warnings: [],
    });
  });

  it('prefers the last failed invocation over a later one that runs', async () => {
    const entries = unitEntries([
      { app: ['first ok'], end: "Failed with result 'exit-code'." },
      { app: ['crash here'], end: 'Main process exited, code=killed, status=9/KILL' },
      { app: ['now serving'] },
    ]);
    const { text, source } = await readUnit('demo', await journalOf(entries));
    expect(text).toContain('demo[101]: crash here');
    expect(text).not.toContain('first ok');
    expect(text).not.toContain('now serving');
    expect(text.match(/systemd\[1\]: Starting/g)).toHaveLength(3);
    expect(source.describe).toContain('last failed invocation');
  });

  it('takes the last invocation when none failed', async () => {
    const entries = unitEntries([
      { app: ['old run'], end: 'Main process exited, code=exited, status=0/SUCCESS' },
      { app: ['current run'] },
    ]);
    const { text, source } = await readUnit('demo.service', await journalOf(entries));
    expect(text).toContain('current run');
    expect(text).not.toContain('old run');
    expect(source.describe).toContain(`last invocation ${invocationIdFor(1).slice(0, 8)}`);
  });

  it('keeps --since working: journalctl refuses it with --cursor, so the second pass drops it', async () => {
    const entries = unitEntries([
      { app: ['one'], end: "Failed with result 'exit-code'." },
      { app: ['two'], end: "Failed with result 'exit-code'." },
    ]);
    const file = await journalOf(entries);
    const source = await openSource(
      { kind: 'unit', unit: 'demo', journalFile: [file], since: '2020-01-01' },
      io,
    );
    const text = await readAll(source.chunks);
    expect(text).toContain('demo[101]: two');
    expect(text).not.toContain('one');
  });

  it('keeps every line when the journal names no invocations (systemd before 232)', async () => {
    const entries = unitEntries([
      { app: ['old'], end: "Failed with result 'exit-code'." },
      { app: ['new'] },
    ]).map(({ INVOCATION_ID: _a, _SYSTEMD_INVOCATION_ID: _b, ...rest }) => rest);
    const { text, source } = await readUnit('demo', await journalOf(entries));
    expect(text).toContain('old');
    expect(text).toContain('new');
    expect(source.describe).toBe('journal of demo.service (no invocation ids; all lines)');
  });

  it('splits multi-line messages and decodes non-UTF-8 bytes', async () => {
    const base = {
      _BOOT_ID: TEST_BOOT_ID,
      _HOSTNAME: 'gpu1',
      SYSLOG_IDENTIFIER: 'demo',
      _PID: '7',
      _SYSTEMD_UNIT: 'demo.service',
      _SYSTEMD_INVOCATION_ID: invocationIdFor(0),
    };
    const entries: JournalFields[] = [
      {
        ...base,
        __REALTIME_TIMESTAMP: '1772359200000000',
        MESSAGE: 'Traceback (most recent call last):\n  File "x.py", line 1\n',
      },
      {
        ...base,
        __REALTIME_TIMESTAMP: '1772359201000000',
        MESSAGE: Uint8Array.from([0x62, 0x61, 0x64, 0xff, 0x21]),
      },
    ];
    const { text } = await readUnit('demo', await journalOf(entries));
    expect(text).toBe(
      'Mar 01 10:00:00 gpu1 demo[7]: Traceback (most recent call last):\n' +
        'Mar 01 10:00:00 gpu1 demo[7]:   File "x.py", line 1\n' +
        'Mar 01 10:00:01 gpu1 demo[7]: bad\uFFFD!\n',
    );
  });

  it('reads a journal folder', async () => {
    const dir = await tempDir();
    await writeJournalFile(
      unitEntries([{ app: ['in a folder'], end: "Failed with result 'exit-code'." }]),
      join(dir, 'a.journal'),
    );
    const source = await openSource({ kind: 'unit', unit: 'demo', journalDir: dir }, io);
    expect(await readAll(source.chunks)).toContain('in a folder');
  });

  it('fails with journalctl first error line', async () => {
    const error = await openSource(
      { kind: 'unit', unit: 'demo', journalFile: [exampleJournal], since: 'not a time' },
      io,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toBe(
      'journalctl failed (status 1): Failed to parse timestamp: not a time',
    );
  });

  it('fails when the journal holds nothing for the unit', async () => {
    await expect(
      openSource({ kind: 'unit', unit: 'other', journalFile: [exampleJournal] }, io),
    ).rejects.toThrow(/^the journal holds no entries for other\.service; /);
  });
});

describe('unit journal errors before journalctl runs', () => {
  it('says journalctl is missing', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'x.journal'), '');
    const error = await openSource(
      { kind: 'unit', unit: 'demo', journalFile: [join(dir, 'x.journal')] },
      { stdin: Readable.from([]), env: { PATH: dir } },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toMatch(/^journalctl was not found on PATH; /);
  });

  it.each([
    [{ journalFile: ['/nonexistent/x.journal'] }, 'cannot read /nonexistent/x.journal: no such file'],
    [{ journalDir: '/nonexistent-dir' }, 'cannot read /nonexistent-dir: no such file'],
    [{ journalDir: '/etc/hostname' }, 'cannot read /etc/hostname: not a folder'],
    [{ journalFile: ['/tmp'] }, 'cannot read /tmp: it is a folder, not a file'],
  ])('checks journal paths: %j', async (paths, message) => {
    await expect(openSource({ kind: 'unit', unit: 'demo', ...paths }, io)).rejects.toThrow(message);
  });

  it('refuses a unit name outside systemd grammar', async () => {
    await expect(openSource({ kind: 'unit', unit: 'demo; rm -rf /' }, io)).rejects.toBeInstanceOf(UsageError);
  });
});

/** tempDir() is per test; the suite's journal lives for the whole describe block. */
async function tempDirForSuite(): Promise<string> {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  return mkdtemp(join(tmpdir(), 'vigil-journal-'));
}
