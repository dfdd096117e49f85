import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, SourceError } from '../errors.js';
import { builtinSignatures } from '../signatures/index.js';
import { defaultRulesDir, loadSignatures } from './load-user-signatures.js';

const rule = (id: string, title = 't'): string =>
  [
    `id: ${id}`,
    `title: ${title}`,
    'category: other',
    'engines: [vllm]',
    'keywords: [boom]',
    'match:',
    "  message: 'boom'",
    'explanation: e',
    'fix: f',
    'references: []',
    '',
  ].join('\n');

const dirs: string[] = [];
function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-rules-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('defaultRulesDir', () => {
  it.each([
    [{ XDG_CONFIG_HOME: '/cfg', HOME: '/home/u' }, '/cfg/vigil/signatures'],
    [{ XDG_CONFIG_HOME: '', HOME: '/home/u' }, '/home/u/.config/vigil/signatures'],
    [{ HOME: '/home/u' }, '/home/u/.config/vigil/signatures'],
  ])('%o → %s', (env, expected) => {
    expect(defaultRulesDir(env)).toBe(expected);
  });
});

describe('loadSignatures', () => {
  it('is the built-ins when no folder exists', async () => {
    const { signatures, userFiles } = await loadSignatures({
      env: { XDG_CONFIG_HOME: '/nonexistent/vigil-test' },
    });
    expect(signatures).toEqual(builtinSignatures);
    expect(userFiles.size).toBe(0);
  });

  it('reads the default folder and --rules folders, YAML and JSON, ignoring other files', async () => {
    const config = tempDir({ 'vigil/signatures/a.yaml': rule('from-default') });
    const extra = tempDir({
      'b.yml': rule('from-rules-yml'),
      'c.json': JSON.stringify(yamlAsObject('from-rules-json')),
      'notes.txt': 'not a rule',
    });
    const { signatures, userFiles } = await loadSignatures({
      rulesDirs: [extra],
      env: { XDG_CONFIG_HOME: config },
    });
    expect(signatures.slice(0, 3).map((signature) => signature.id)).toEqual([
      'from-default',
      'from-rules-yml',
      'from-rules-json',
    ]);
    expect(userFiles.get('from-rules-yml')).toBe(join(extra, 'b.yml'));
  });

  it('accepts a single file for --rules', async () => {
    const dir = tempDir({ 'one.yaml': rule('single-file') });
    const { signatures } = await loadSignatures({
      rulesDirs: [join(dir, 'one.yaml')],
      env: {},
      skipDefault: true,
    });
    expect(signatures[0]?.id).toBe('single-file');
  });

  it('replaces a built-in with a user signature of the same id', async () => {
    const dir = tempDir({ 'override.yaml': rule('cuda-no-kernel-image', 'my own words') });
    const { signatures } = await loadSignatures({ rulesDirs: [dir], env: {}, skipDefault: true });
    expect(signatures).toHaveLength(builtinSignatures.length);
    expect(signatures.find((signature) => signature.id === 'cuda-no-kernel-image')?.title).toBe(
      'my own words',
    );
  });

  it('fails on a missing --rules folder', async () => {
    await expect(
      loadSignatures({ rulesDirs: ['/nonexistent/rules'], env: {}, skipDefault: true }),
    ).rejects.toThrow(new SourceError('--rules /nonexistent/rules: no such file or folder'));
  });

  it('fails with one clear error naming a bad file when strict (vigil signatures)', async () => {
    const dir = tempDir({ 'bad.yaml': rule('bad-one').replace("message: 'boom'", "message: '(a)\\1'") });
    const error: unknown = await loadSignatures({
      rulesDirs: [dir],
      env: {},
      skipDefault: true,
      strict: true,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(
      new RegExp(
        `^${join(dir, 'bad.yaml').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: match\\.message: expected a pattern`,
      ),
    );
  });
});

describe('a broken rule file among good ones', () => {
  it('is skipped with a warning naming it and the whole YAML problem; the others load', async () => {
    const dir = tempDir({
      'a-good.yaml': rule('user-good'),
      'b-broken.yaml': 'id: x\nmatch:\n  message: [unclosed\n  other: 1\n',
    });
    const loaded = await loadSignatures({ rulesDirs: [dir], env: {}, skipDefault: true });
    expect(loaded.signatures.map((signature) => signature.id)).toContain('user-good');
    expect(loaded.warnings).toEqual([
      `skipped the rule file ${join(dir, 'b-broken.yaml')}: not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 4, column 3, at \`other: 1\``,
    ]);
  });

  it('is skipped with a warning in the default folder too', async () => {
    const config = tempDir({ 'vigil/signatures/bad.json': '{"id": ' });
    const loaded = await loadSignatures({ env: { XDG_CONFIG_HOME: config } });
    expect(loaded.signatures).toHaveLength(builtinSignatures.length);
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/bad\.json: not valid JSON: /);
  });
});

function yamlAsObject(id: string): Record<string, unknown> {
  return {
    id,
    title: 't',
    category: 'other',
    engines: ['vllm'],
    keywords: ['boom'],
    match: { message: 'boom' },
    explanation: 'e',
    fix: 'f',
    references: [],
  };
}
