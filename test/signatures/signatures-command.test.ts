import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinSignatures, fixtureNames } from '../../src/signatures/index.js';
import { parseUserSignatures } from '../../src/signatures/user-signatures.js';
import { runCliCaptured } from '../helpers/run-cli-captured.js';
import { USER_RULE_YAML } from '../helpers/user-rule.js';

// No user folder of the machine running the tests may leak in.
const env = { XDG_CONFIG_HOME: '/nonexistent/vigil-test-config' };

const rulesDir = mkdtempSync(join(tmpdir(), 'vigil-cli-rules-'));
writeFileSync(join(rulesDir, 'mine.yaml'), USER_RULE_YAML);
afterAll(() => rmSync(rulesDir, { recursive: true, force: true }));

describe('vigil signatures', () => {
  it('lists every built-in signature in a table', async () => {
    const { code, stdout, stderr } = await runCliCaptured(['signatures'], { env });
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.split('\n')[0]).toMatch(/^ID +CATEGORY +ENGINES +TITLE$/);
    for (const signature of builtinSignatures) expect(stdout).toContain(signature.id);
    expect(stdout).toContain(`${builtinSignatures.length} signatures.`);
  });

  it('lists them as JSON, patterns written as /source/flags', async () => {
    const { code, stdout } = await runCliCaptured(['signatures', '--format', 'json'], { env });
    expect(code).toBe(0);
    const list = JSON.parse(stdout) as { id: string; source: string; match: Record<string, unknown> }[];
    expect(list.map((entry) => entry.id)).toEqual(builtinSignatures.map((signature) => signature.id));
    const flashinfer = list.find((entry) => entry.id === 'flashinfer-version-mismatch');
    expect(flashinfer?.source).toBe('built-in');
    expect(flashinfer?.match.message).toMatch(/^\/flashinfer-.*\/$/);
  });

  it('marks and lists user rules from --rules', async () => {
    const { code, stdout } = await runCliCaptured(['signatures', '--rules', rulesDir], { env });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^my-own-rule \* +other/m);
    expect(stdout).toContain('* from your rules (1)');
  });

  it('rejects an unknown format', async () => {
    const { code, stderr } = await runCliCaptured(['signatures', '--format', 'yaml'], { env });
    expect(code).toBe(2);
    expect(stderr).toBe('vigil: --format: expected table or json, got "yaml"\n');
  });
});

describe('vigil signatures show', () => {
  it('prints one signature with its fixtures', async () => {
    const { code, stdout } = await runCliCaptured(['signatures', 'show', 'flashinfer-version-mismatch'], {
      env,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^flashinfer-version-mismatch: flashinfer packages at different versions$/m);
    expect(stdout).toMatch(/^category +dependency-mismatch$/m);
    expect(stdout).toMatch(/^fix +pip install "flashinfer-\{part\}==\{want\}"$/m);
    for (const name of fixtureNames['flashinfer-version-mismatch']?.matches ?? []) {
      expect(stdout).toMatch(new RegExp(`^  matches +${name.replace(/\./g, '\\.')}$`, 'm'));
    }
    for (const name of fixtureNames['flashinfer-version-mismatch']?.ignores ?? []) {
      expect(stdout).toMatch(new RegExp(`^  ignores +${name.replace(/\./g, '\\.')}$`, 'm'));
    }
  });

  it('prints JSON with the fixture names', async () => {
    const { stdout } = await runCliCaptured(
      ['signatures', 'show', 'cuda-no-kernel-image', '--format', 'json'],
      { env },
    );
    const shown = JSON.parse(stdout) as { signature: { id: string }; fixtures: unknown; source: string };
    expect(shown.signature.id).toBe('cuda-no-kernel-image');
    expect(shown.source).toBe('built-in');
    expect(shown.fixtures).toEqual(fixtureNames['cuda-no-kernel-image']);
  });

  it.each(builtinSignatures.map((signature) => signature.id))(
    'prints %s as JSON that is a valid user rule file',
    async (id) => {
      const { stdout } = await runCliCaptured(['signatures', 'show', id, '--format', 'json'], { env });
      const shown = JSON.parse(stdout) as { signature: unknown };
      const text = JSON.stringify(shown.signature);
      // User rules run in a linear-time engine, which has no backreferences: a built-in that needs one is
      // refused as a user rule, and says why.
      if (/\\\\k<|\\\\\d/.test(text)) {
        expect(() => parseUserSignatures(text, `${id}.json`)).toThrow(/backreferences/);
        return;
      }
      const [entry] = parseUserSignatures(text, `${id}.json`);
      const original = builtinSignatures.find((signature) => signature.id === id);
      expect(entry?.signature).toEqual(original);
    },
  );

  it('shows a user rule with its file and no fixtures', async () => {
    const { code, stdout } = await runCliCaptured(
      ['signatures', 'show', 'my-own-rule', '--rules', rulesDir],
      { env },
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(
      new RegExp(`^source +${join(rulesDir, 'mine.yaml').replace(/[.\\]/g, '\\$&')}$`, 'm'),
    );
    expect(stdout).not.toContain('fixtures');
  });

  it('fails on an unknown id with suggestions', async () => {
    const { code, stdout, stderr } = await runCliCaptured(['signatures', 'show', 'flashinfer-mismatch'], {
      env,
    });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^vigil: no signature with id "flashinfer-mismatch"; did you mean flashinfer-version-mismatch/,
    );
  });
});
