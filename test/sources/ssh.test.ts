import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { StreamInterruptedError } from '../../src/errors.js';
import {
  explainSshEnd,
  quoteForShell,
  remoteCommandLine,
  sshArguments,
  validateSshTarget,
} from '../../src/sources/ssh.js';

const AWKWARD = [
  'plain',
  'two words',
  "it's",
  '"double"',
  '$HOME',
  '$(reboot)',
  '`id`',
  'a;b',
  'a && b',
  'line\nbreak',
  'tab\there',
  '--unit=x',
  '*',
  '~root',
  'back\\slash',
  "''",
  '',
  'émoji ✓',
  '!event',
  '#comment',
];

describe('quoteForShell', () => {
  it.each(AWKWARD)('a POSIX shell reads %j back as the same one argument', (arg) => {
    const line = `printf '%s\\0' ${quoteForShell(arg)}`;
    const result = spawnSync('/bin/sh', ['-c', line]);
    expect(result.status).toBe(0);
    expect(result.stdout.toString('utf8')).toBe(`${arg}\0`);
  });

  it('keeps every argument of a remote line apart, with exec first', () => {
    const line = remoteCommandLine('printf', ['%s\\0', ...AWKWARD]);
    expect(line.startsWith('exec printf ')).toBe(true);
    const result = spawnSync('/bin/sh', ['-c', line]);
    expect(result.stdout.toString('utf8')).toBe(AWKWARD.map((arg) => `${arg}\0`).join(''));
  });
});

describe('ssh arguments', () => {
  it('puts BatchMode first so no option can turn it off, then the user options before the defaults', () => {
    const args = sshArguments({
      destination: 'gpu-1',
      configFile: '/etc/cfg',
      options: ['ConnectTimeout=3', 'BatchMode=no'],
      connectTimeoutMs: 10_000,
    });
    expect(args.slice(0, 2)).toEqual(['-o', 'BatchMode=yes']);
    expect(args).toContain('-F');
    expect(args.indexOf('ConnectTimeout=3')).toBeLessThan(args.indexOf('ConnectTimeout=10'));
  });

  it.each([
    ['-oProxyCommand=x', 'destination'],
    ['two hosts', 'destination'],
    ['', 'destination'],
  ])('refuses the destination %j', (destination) => {
    expect(() => validateSshTarget({ destination })).toThrow(/invalid --ssh destination/);
  });

  it.each(['Port', 'Port 22', '=x', 'A=b\nc'])('refuses the option %j', (option) => {
    expect(() => validateSshTarget({ destination: 'h', options: [option] })).toThrow(/invalid --ssh-option/);
  });

  it.each(['host', 'user@host', 'ssh://user@host:2222', 'gpu-1.example.com'])('accepts %s', (destination) => {
    expect(() => validateSshTarget({ destination, options: ['Port=2222'] })).not.toThrow();
  });
});

describe('explainSshEnd', () => {
  const end = (code: number, stderrTail: string, bytes = 0) =>
    explainSshEnd('gpu-1', 'journalctl', { code, stderrTail, bytes });

  it.each([
    ['ssh: Could not resolve hostname gpu-1: Name or service not known', /unknown host/],
    [
      '@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\nHost key verification failed.',
      /host key has changed/,
    ],
    [
      'No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.\nHost key verification failed.',
      /not in known_hosts/,
    ],
    ['root@127.0.0.1: Permission denied (publickey).', /key was refused/],
    ['ssh: connect to host 127.0.0.1 port 1: Connection refused', /connection refused/],
    ['ssh: connect to host 10.0.0.1 port 22: Connection timed out', /no answer/],
  ])('words %j in one line', (stderr, words) => {
    const error = end(255, stderr);
    expect(error?.message).toMatch(words);
    expect(error?.message).toMatch(/^cannot reach gpu-1 over ssh: /);
    expect(error?.message.includes('\n')).toBe(false);
  });

  it('tells a missing remote program from a failing one', () => {
    expect(end(127, 'sh: 1: exec: journalctl: not found')?.message).toBe(
      'journalctl was not found on gpu-1; install it there, or copy the log here and pass the file',
    );
    expect(end(1, 'No journal files were found.')).toBeUndefined();
  });

  it('marks a connection lost after output as an interrupted stream', () => {
    const error = end(255, 'Connection to 127.0.0.1 closed by remote host.', 5000);
    expect(error).toBeInstanceOf(StreamInterruptedError);
    expect(error?.message).toMatch(/^lost the connection to gpu-1 after 5000 bytes/);
  });
});
