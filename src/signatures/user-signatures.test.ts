import { describe, expect, it } from 'vitest';
import { diagnose } from '../diagnosis/index.js';
import { ConfigError } from '../errors.js';
import { builtinSignatures } from './index.js';
import { mergeSignatures, parseUserSignatures } from './user-signatures.js';

const yamlRule = `
id: my-license-server-down
title: license server unreachable
category: other
engines: [vllm]
keywords: [license server]
match:
  exception: RuntimeError
  message: 'license server (?<host>\\S+) unreachable'
explanation: The plugin checks its license at start-up and could not reach {host}.
fix: curl -v https://{host}/health
references: []
`;

function errorOf(text: string, file = 'rules/a.yaml'): string {
  try {
    parseUserSignatures(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('parseUserSignatures', () => {
  it('reads one YAML signature and compiles its patterns', () => {
    const [entry] = parseUserSignatures(yamlRule, 'rules/license.yaml');
    expect(entry?.file).toBe('rules/license.yaml');
    expect(entry?.signature.id).toBe('my-license-server-down');
    expect(entry?.signature.match.message).toBeInstanceOf(RegExp);
    expect(
      entry?.signature.match.message?.exec('license server lic.example.com unreachable')?.groups?.host,
    ).toBe('lic.example.com');
  });

  it('reads a JSON list, with /pattern/flags and a null exception', () => {
    const json = JSON.stringify([
      {
        id: 'a-one',
        title: 't',
        category: 'other',
        engines: ['ollama'],
        keywords: ['boom'],
        match: { exception: null, message: '/BOOM (?<what>\\w+)/i' },
        explanation: 'e {what}',
        fix: 'f',
        references: ['https://example.com/x'],
      },
      {
        id: 'a-two',
        title: 't',
        category: 'other',
        engines: ['vllm'],
        keywords: ['bang'],
        match: { exception: '/^(?:ValueError|TypeError)$/' },
        explanation: 'e',
        fix: 'f',
        references: [],
      },
    ]);
    const [one, two] = parseUserSignatures(json, 'rules/b.json').map((entry) => entry.signature);
    expect(one?.match.exception).toBeNull();
    expect(one?.match.message?.flags).toBe('i');
    expect(two?.match.exception).toBeInstanceOf(RegExp);
  });

  it('takes an empty file as no signatures', () => {
    expect(parseUserSignatures('', 'rules/empty.yaml')).toEqual([]);
  });

  const MESSAGE = "  message: 'license server (?<host>\\S+) unreachable'";
  it.each([
    [
      'a backreference',
      MESSAGE,
      "  message: '(a*)\\1*b'",
      'match.message: expected a pattern without backreferences (\\1): user patterns run in a linear-time engine',
    ],
    [
      'a named backreference',
      MESSAGE,
      "  message: '(?<x>a)\\k<x>'",
      'expected a pattern without backreferences',
    ],
    ['a lookahead that could backtrack', MESSAGE, "  message: '(?=x)(a+)+$'", 'match.message: expected'],
    [
      'an invalid pattern',
      MESSAGE,
      "  message: '(unclosed'",
      'match.message: expected a valid regular expression',
    ],
    ['a stateful flag', MESSAGE, "  message: '/x/g'", 'flags from "imsu" only'],
    [
      'a dotted exception name',
      '  exception: RuntimeError',
      '  exception: torch.OutOfMemoryError',
      'match.exception: expected the last part',
    ],
    ['an unknown match field', MESSAGE, "  msg: 'x'", 'match: expected only known fields, found "msg"'],
  ])('rejects %s, naming the field', (_, before, after, expected) => {
    const text = yamlRule.replace(before, () => after).replace(/\{host\}/g, 'the server');
    const message = errorOf(text);
    expect(message).toContain('rules/a.yaml: ');
    expect(message).toContain(expected);
  });

  it('says what was found for a wrong category', () => {
    expect(errorOf(yamlRule.replace('category: other', 'category: gpu'))).toMatch(
      /^rules\/a\.yaml: category: expected one of "dependency-mismatch", .*"other", found "gpu"$/,
    );
  });

  it('reports a missing field', () => {
    expect(errorOf(yamlRule.replace(/^title: .*$/m, ''))).toBe(
      'rules/a.yaml: title: expected a short title, found nothing',
    );
  });

  it('reports a placeholder no pattern captures', () => {
    expect(errorOf(yamlRule.replace('curl -v https://{host}/health', 'ping {server}'))).toContain(
      'fix: expected placeholders that name a group of match.message, match.context or match.captures ({host}); {server} does not',
    );
  });

  it('reports upper-case keywords', () => {
    expect(errorOf(yamlRule.replace('[license server]', '[License Server]'))).toContain(
      'keywords.0: expected a lower-case keyword',
    );
  });

  it('names the signature in a list and counts further problems', () => {
    const list = `- ${yamlRule.trim().replace(/\n/g, '\n  ')}\n- id: Bad_Id\n  title: ''\n`;
    const message = errorOf(list);
    expect(message).toMatch(/^rules\/a\.yaml: signature 2 \("Bad_Id"\), id: expected a kebab-case id/);
    expect(message).toMatch(/\(and \d+ more problems\)$/);
  });

  it('reports a file that is not YAML or JSON', () => {
    expect(errorOf('id: [unclosed', 'rules/x.yml')).toMatch(/^rules\/x\.yml: not valid YAML: /);
    expect(errorOf('{"id": ', 'rules/x.json')).toMatch(/^rules\/x\.json: not valid JSON: /);
  });

  it('reports a list item that is not an object', () => {
    expect(errorOf('- 42\n')).toBe('rules/a.yaml: signature 1, expected a signature object, found 42');
  });
});

describe('mergeSignatures', () => {
  const user = parseUserSignatures(yamlRule, 'rules/license.yaml');

  it('puts new user signatures first and keeps every built-in', () => {
    const merged = mergeSignatures(builtinSignatures, user);
    expect(merged[0]?.id).toBe('my-license-server-down');
    expect(merged).toHaveLength(builtinSignatures.length + 1);
  });

  it('replaces a built-in with the same id in place', () => {
    const replacement = parseUserSignatures(
      yamlRule.replace('my-license-server-down', 'flashinfer-version-mismatch'),
      'r.yaml',
    );
    const merged = mergeSignatures(builtinSignatures, replacement);
    expect(merged).toHaveLength(builtinSignatures.length);
    const index = builtinSignatures.findIndex((signature) => signature.id === 'flashinfer-version-mismatch');
    expect(merged[index]?.title).toBe('license server unreachable');
  });

  it('refuses one id defined in two user files', () => {
    const again = parseUserSignatures(yamlRule, 'rules/other.yaml');
    expect(() => mergeSignatures(builtinSignatures, [...user, ...again])).toThrow(
      'rules/other.yaml: signature id "my-license-server-down" is also defined in rules/license.yaml',
    );
  });

  it('lets the diagnosis use a user signature, its captures filled in', () => {
    const log = [
      'INFO 01-02 03:04:05 [api_server.py:1] starting',
      'Traceback (most recent call last):',
      '  File "/opt/plugin/check.py", line 3, in check',
      '    raise RuntimeError("license server lic.example.com unreachable")',
      'RuntimeError: license server lic.example.com unreachable',
    ].join('\n');
    const diagnosis = diagnose(log, { signatures: mergeSignatures(builtinSignatures, user) });
    expect(diagnosis.signature?.id).toBe('my-license-server-down');
    expect(diagnosis.signature?.fix).toBe('curl -v https://lic.example.com/health');
  });
});
