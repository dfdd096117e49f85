import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USER_RULE_YAML } from '../helpers/user-rule.js';
import { expectRefused, runBin, tempDir } from './helpers.js';

// Issue 31, item 7: nothing a rule file or kubectl says may stop Vigil from working. The same rule id in two
// rule files made every `diagnose` and every `vigil run` exit 2 (the supervised server never started);
// `null` or a non-list from kubectl gave an internal error.

const LOG_TEXT = 'INFO starting\nRuntimeError: boom kaboom\n';

/** Two rule folders that both define `my-own-rule`, the first with its own fix. */
function duplicateRules(dir: string): { first: string; second: string } {
  const first = join(dir, 'rules-a');
  const second = join(dir, 'rules-b');
  mkdirSync(first);
  mkdirSync(second);
  writeFileSync(join(first, 'mine.yaml'), USER_RULE_YAML.replace('fix: stop {what}', 'fix: first {what}'));
  writeFileSync(join(second, 'copy.yaml'), USER_RULE_YAML.replace('fix: stop {what}', 'fix: second {what}'));
  return { first, second };
}

describe('a rule id defined twice is a warning, never a stop', () => {
  it('diagnose still diagnoses, with the first rule, and names both files', async () => {
    const dir = tempDir();
    const { first, second } = duplicateRules(dir);
    const log = join(dir, 'server.log');
    writeFileSync(log, LOG_TEXT);
    const result = await runBin(['diagnose', log, '--rules', first, '--rules', second, '--format', 'json'], {
      env: { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config') },
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      signature: { id: string; fix: string } | null;
      warnings: string[];
    };
    expect(report.signature).toMatchObject({ id: 'my-own-rule' });
    expect(JSON.stringify(report)).toContain('first kaboom');
    expect(report.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/my-own-rule.*rules-b\/copy\.yaml.*rules-a\/mine\.yaml/),
      ]),
    );
  });

  it('vigil run starts the server and says which rule it used', async () => {
    const dir = tempDir();
    const { first, second } = duplicateRules(dir);
    const marker = join(dir, 'server-ran');
    const result = await runBin(
      [
        'run',
        '--no-preflight',
        '--no-history',
        '--quiet',
        '--rules',
        first,
        '--rules',
        second,
        '--',
        process.execPath,
        '-e',
        `require('node:fs').writeFileSync(${JSON.stringify(marker)}, ''); process.exit(0)`,
      ],
      { env: { HOME: dir, XDG_CONFIG_HOME: join(dir, 'config') } },
    );
    expect(existsSync(marker)).toBe(true);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: .*my-own-rule.*rules-b\/copy\.yaml.*rules-a\/mine\.yaml/);
  });
});

/** A kubectl that prints `podsJson` for `get pods`, and nothing else. */
function fakeKubectl(dir: string, podsJson: string): Record<string, string> {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const script = join(bin, 'kubectl');
  writeFileSync(
    script,
    `#!/bin/sh\ncase "$1 $2" in\n  "get pods") cat <<'EOF'\n${podsJson}\nEOF\n;;\n  *) echo '{"kind":"List","items":[]}' ;;\nesac\n`,
  );
  chmodSync(script, 0o755);
  return { HOME: dir, PATH: `${bin}:/usr/bin:/bin` };
}

describe('kubectl JSON of the wrong shape is one clear line', () => {
  it.each([
    ['null', /kubectl printed null where a List of pods belongs/],
    ['[]', /kubectl printed a JSON array where a List of pods belongs/],
    ['"pods"', /kubectl printed a JSON string where a List of pods belongs/],
    ['{"kind":"List","items":"x"}', /kubectl printed an object without an items list/],
    ['{"kind":"List","items":null}', /kubectl printed an object without an items list/],
  ])('%s', async (json, pattern) => {
    const dir = tempDir();
    const result = await runBin(['diagnose', '--kube', '-l', 'app=vllm'], { env: fakeKubectl(dir, json) });
    expectRefused(result, pattern);
  });

  it('items that are not pods, and fields of the wrong type, are left out, not an internal error', async () => {
    const dir = tempDir();
    const pods = JSON.stringify({
      kind: 'List',
      items: [
        null,
        7,
        { metadata: { name: 5 } },
        {
          metadata: { name: 'vllm-0' },
          status: { containerStatuses: [null, { name: 3, restartCount: 'x' }] },
        },
      ],
    });
    const result = await runBin(['diagnose', '--kube', '-l', 'app=vllm', '--format', 'json'], {
      env: fakeKubectl(dir, pods),
    });
    expect(result.stderr).not.toMatch(/internal error|TypeError|\n\s+at /);
    expect([0, 1]).toContain(result.code);
    expect(JSON.parse(result.stdout)).toMatchObject({ total: 1 });
  });
});
