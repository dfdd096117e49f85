import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamInterruptedError } from '../../src/errors.js';
import { createSshRunner, keepPartial } from '../../src/sources/index.js';
import type { CheckReport } from '../../src/environment/run-check.js';
import type { Diagnosis } from '../../src/types/diagnosis.js';
import { makeTempDir, writeEnvironment } from '../check/helpers/write-environment.js';
import { runCliCaptured } from '../helpers/run-cli-captured.js';
import { sshdMissing, startSshd, type TestSshd } from '../helpers/start-sshd.js';
import { JOURNAL_REMOTE, entriesFromShortLog, writeJournalFile } from './helpers/write-journal.js';

const EXAMPLE = 'examples/vllm-kimi-k25-flashinfer-mismatch.journal.log';
const missing = sshdMissing();
if (missing !== null) console.log(`skipping the sshd tests: ${missing}`);

// A real sshd on 127.0.0.1; the "remote" side is this machine seen through it, so every path below is
// read by journalctl, cat and sh on the far side of a real ssh connection.
describe.skipIf(missing !== null)('--ssh through a real sshd', () => {
  let sshd: TestSshd;
  let dir: string;
  const ssh = (): string[] => ['--ssh', sshd.alias, '--ssh-config', sshd.config];
  const env = { XDG_STATE_HOME: '/nonexistent-state', XDG_CONFIG_HOME: '/nonexistent-config' };

  beforeAll(async () => {
    sshd = await startSshd();
    dir = await mkdtemp(join(tmpdir(), 'vigil-ssh-remote-'));
  }, 30_000);
  afterAll(async () => {
    await sshd?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it.skipIf(JOURNAL_REMOTE === undefined)(
    'diagnose --unit --journal-file names the flashinfer cause and the restart loop of a remote journal',
    async () => {
      const file = join(dir, 'incident.journal');
      const text = await readFile(EXAMPLE, 'utf8');
      await writeJournalFile(entriesFromShortLog(text, { unit: 'vllm-kimi-k25.service' }), file);
      const json = await runCliCaptured(
        ['diagnose', ...ssh(), '--unit', 'vllm-kimi-k25', '--journal-file', file, '--format', 'json'],
        { env },
      );
      expect(json.stderr).toBe('');
      expect(json.code).toBe(1);
      const d = JSON.parse(json.stdout) as Diagnosis;
      expect(d.signature?.id).toBe('flashinfer-version-mismatch');
      expect(d.rootCause?.message).toMatch(/flashinfer-cubin version \(0\.6\.3\) does not match/);
      expect(d.service).toMatchObject({ unit: 'vllm-kimi-k25.service', failedStarts: 2, restartLoop: true });
      expect(d.input.source).toMatch(
        /^journal of vllm-kimi-k25\.service, last failed invocation .* on vigil-test$/,
      );
      const shown = await runCliCaptured(
        ['diagnose', ...ssh(), '--unit', 'vllm-kimi-k25', '--journal-file', file],
        { env },
      );
      expect(shown.stdout).toContain('restart loop');
      expect(shown.stdout).toMatch(/read: journal of vllm-kimi-k25\.service.* on vigil-test/);
    },
    60_000,
  );

  it.skipIf(JOURNAL_REMOTE === undefined)(
    'watch --unit --journal-file --no-follow reads the remote journal and reports the failed start',
    async () => {
      const file = join(dir, 'watched.journal');
      await writeJournalFile(
        entriesFromShortLog(await readFile(EXAMPLE, 'utf8'), { unit: 'vllm-kimi-k25.service' }),
        file,
      );
      const result = await runCliCaptured(
        [
          'watch',
          ...ssh(),
          '--unit',
          'vllm-kimi-k25',
          '--journal-file',
          file,
          '--no-follow',
          '--format',
          'json',
        ],
        { env },
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('flashinfer-version-mismatch');
      expect(result.stdout).toContain('restart loop');
      expect(result.stdout).toMatch(
        /"source": "journal of vllm-kimi-k25\.service, failed invocation .* on vigil-test"/,
      );
    },
    60_000,
  );

  it('diagnose reads a remote log file, plain and gzip, by cat there', async () => {
    const result = await runCliCaptured(
      ['diagnose', ...ssh(), join(process.cwd(), EXAMPLE), '--format', 'json'],
      { env },
    );
    expect(result.code).toBe(1);
    const d = JSON.parse(result.stdout) as Diagnosis;
    expect(d.signature?.id).toBe('flashinfer-version-mismatch');
    expect(d.input.source).toMatch(/on vigil-test$/);
    const { gzipSync } = await import('node:zlib');
    const gz = join(dir, 'a name with spaces; $HOME.log.gz');
    await writeFile(gz, gzipSync(await readFile(EXAMPLE)));
    const fromGzip = await runCliCaptured(['diagnose', ...ssh(), gz, '--format', 'json'], { env });
    expect(fromGzip.stderr).toBe('');
    const parsed = JSON.parse(fromGzip.stdout) as Diagnosis;
    expect(parsed.signature?.id).toBe('flashinfer-version-mismatch');
    expect(parsed.input.formats).toContain('gzip');
  }, 60_000);

  it('a fleet of hosts (--ssh twice, or --ssh-hosts) is grouped by cause; an unreachable host is named', async () => {
    const log = join(process.cwd(), EXAMPLE);
    const twice = await runCliCaptured(
      [
        'diagnose',
        '--ssh',
        'vigil-test',
        '--ssh',
        'vigil-test-2',
        '--ssh-config',
        sshd.config,
        log,
        '--format',
        'json',
      ],
      { env },
    );
    expect(twice.code).toBe(1);
    const report = JSON.parse(twice.stdout) as {
      target: string;
      groups: { signature: string | null; members: string[] }[];
    };
    expect(report.target).toBe('2 hosts');
    expect(report.groups).toEqual([
      expect.objectContaining({
        signature: 'flashinfer-version-mismatch',
        members: ['vigil-test', 'vigil-test-2'],
      }),
    ]);

    const hosts = join(dir, 'hosts.txt');
    await writeFile(hosts, '# the fleet\nvigil-test\nnowhere.invalid  # gone\n');
    const listed = await runCliCaptured(
      ['diagnose', '--ssh-hosts', hosts, '--ssh-config', sshd.config, log],
      { env },
    );
    expect(listed.code).toBe(1);
    expect(listed.stdout).toMatch(/✖ 1 of 2: .*flashinfer/);
    expect(listed.stdout).toMatch(/\? 1 of 2: cannot reach nowhere\.invalid over ssh: /);
  }, 60_000);

  it('check --site-packages reads remote dist-info files and names flashinfer-cubin', async () => {
    const tree = makeTempDir();
    try {
      const { sitePackages } = writeEnvironment(tree.path, [
        { name: 'flashinfer-python', version: '0.6.4' },
        { name: 'flashinfer-cubin', version: '0.6.3' },
      ]);
      const result = await runCliCaptured(
        ['check', ...ssh(), '--site-packages', sitePackages, '--format', 'json'],
        { env },
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(1);
      const report = JSON.parse(result.stdout) as CheckReport;
      expect(report.environment.sitePackages).toEqual([sitePackages]);
      expect(report.findings).toContainEqual(
        expect.objectContaining({
          id: 'flashinfer-version-mismatch',
          packages: ['flashinfer-cubin', 'flashinfer-python'],
        }),
      );
      expect(result.stdout).not.toContain('vigil-remote-env-');
      const text = await runCliCaptured(['check', ...ssh(), '--venv', tree.path], { env });
      expect(text.stdout).toContain('flashinfer-cubin');
      const snapshot = await runCliCaptured(['snapshot', ...ssh(), '--venv', tree.path], { env });
      expect(snapshot.code).toBe(0);
      expect(snapshot.stdout).toContain('"flashinfer-cubin"');
    } finally {
      tree.remove();
    }
  }, 60_000);

  it('check on a remote folder that is not there is one line and exit 2', async () => {
    const result = await runCliCaptured(['check', ...ssh(), '--site-packages', '/no/such/site-packages'], {
      env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'vigil: --site-packages /no/such/site-packages: no such folder on vigil-test\n',
    );
  }, 30_000);

  it('a missing remote program is one line naming it and the host', async () => {
    const result = await runCliCaptured(['diagnose', ...ssh(), '--docker', 'vllm'], {
      env: { ...env },
    });
    // docker may be installed on a developer's machine; then its own error is the line.
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    if (!/docker logs failed/.test(result.stderr)) {
      expect(result.stderr).toBe(
        'vigil: docker was not found on vigil-test; install it there, or copy the log here and pass the file\n',
      );
    }
  }, 30_000);

  it('a refused key, an unknown host key and a changed host key are one line each, exit 2', async () => {
    // ssh adds every IdentityFile it is given: the refused key needs a config that names only it.
    const wrongConfig = join(dir, 'wrong_key_config');
    const config = await readFile(sshd.config, 'utf8');
    await writeFile(
      wrongConfig,
      config.replace(/IdentityFile .*/, `IdentityFile ${join(sshd.dir, 'host_key')}`),
    );
    const wrongKey = await runCliCaptured(
      ['diagnose', '--ssh', sshd.alias, '--ssh-config', wrongConfig, join(process.cwd(), EXAMPLE)],
      { env },
    );
    expect(wrongKey.code).toBe(2);
    expect(wrongKey.stderr).toMatch(/^vigil: cannot reach vigil-test over ssh: the key was refused/);

    const empty = join(dir, 'empty_known_hosts');
    await writeFile(empty, '');
    const unknown = await runCliCaptured(
      ['diagnose', ...ssh(), '--ssh-option', `UserKnownHostsFile=${empty}`, join(process.cwd(), EXAMPLE)],
      { env },
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^vigil: cannot reach vigil-test over ssh: its host key is not in known_hosts/,
    );

    const changed = join(dir, 'changed_known_hosts');
    const other = (await readFile(join(sshd.dir, 'user_key.pub'), 'utf8'))
      .trim()
      .split(' ')
      .slice(0, 2)
      .join(' ');
    await writeFile(changed, `[127.0.0.1]:${sshd.port} ${other}\n`);
    const moved = await runCliCaptured(
      ['diagnose', ...ssh(), '--ssh-option', `UserKnownHostsFile=${changed}`, join(process.cwd(), EXAMPLE)],
      { env },
    );
    expect(moved.code).toBe(2);
    expect(moved.stderr).toMatch(/^vigil: cannot reach vigil-test over ssh: its host key has changed/);
    for (const result of [wrongKey, unknown, moved]) expect(result.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);

  it('a connection lost mid-stream keeps what was read and marks it partial', async () => {
    const runner = createSshRunner({ destination: sshd.alias, configFile: sshd.config });
    // exec makes sh the session's process; killing its parent, the sshd session, drops the connection.
    const stream = await runner.start(
      'sh',
      ['-c', `cat ${join(process.cwd(), EXAMPLE)}; sleep 0.3; kill -9 $PPID; sleep 5`],
      {
        timeoutMs: 20_000,
        env: process.env,
      },
    );
    const source = keepPartial({ chunks: stream.chunks, describe: 'x', formats: [], warnings: [] });
    let bytes = 0;
    for await (const chunk of source.chunks) bytes += chunk.length;
    expect(bytes).toBe((await readFile(EXAMPLE)).length);
    expect(source.partial).toMatch(/^lost the connection to vigil-test after \d+ bytes/);
    const bare = await runner.start('sh', ['-c', 'kill -9 $PPID; sleep 5'], {
      timeoutMs: 20_000,
      env: process.env,
    });
    await expect(async () => {
      for await (const chunk of bare.chunks) void chunk;
    }).rejects.toThrow(/cannot reach vigil-test over ssh: the connection was lost|lost the connection/);
    void StreamInterruptedError;
  }, 30_000);
});

describe('an unreachable --ssh destination', () => {
  it('is one line and exit 2 within the connect timeout', async () => {
    const started = Date.now();
    // Port 1 on 127.0.0.1: nothing listens, so ssh is refused at once; a config keeps ~/.ssh out of it.
    const dir = await mkdtemp(join(tmpdir(), 'vigil-ssh-none-'));
    try {
      const config = join(dir, 'config');
      await writeFile(config, 'Host nowhere\n  HostName 127.0.0.1\n  Port 1\n');
      const result = await runCliCaptured([
        'diagnose',
        '--ssh',
        'nowhere',
        '--ssh-config',
        config,
        '--ssh-timeout',
        '3',
        '--unit',
        'vllm',
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'vigil: cannot reach nowhere over ssh: connection refused (is sshd running on that port?)\n',
      );
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 20_000);
});
