import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../version.js';
import { describeVersion, findInstall } from './describe-install.js';

const runtime = { node: '20.20.2', platform: 'linux', arch: 'x64', execPath: '/usr/local/bin/vigil' };

describe('vigil --version', () => {
  it("is package.json's version", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(VERSION).toBe(pkg.version);
  });

  it.each([
    ['file:///usr/lib/node_modules/vigil-llm/dist/cli/bin.js', 'npm'],
    ['file:///home/me/project/node_modules/vigil-llm/dist/cli/bin.js', 'npm'],
    ['file:///home/me/vigil/dist/cli/bin.js', 'source'],
  ] as const)('%s is a %s install', (url, kind) => {
    expect(findInstall({}, url)).toBe(kind);
  });

  it.each([
    ['binary', 'installed as standalone binary (linux-x64, Node.js 20.20.2 built in): /usr/local/bin/vigil'],
    ['wheel', 'installed as Python wheel vigil-llm (standalone binary linux-x64): /usr/local/bin/vigil'],
    ['npm', 'installed as npm package vigil-llm (Node.js 20.20.2)'],
    ['source', 'installed as source checkout (Node.js 20.20.2)'],
  ] as const)('says %s', (kind, line) => {
    expect(describeVersion(kind, runtime)).toBe(`vigil ${VERSION}\n${line}`);
  });
});
