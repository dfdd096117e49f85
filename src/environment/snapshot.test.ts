import { describe, expect, it } from 'vitest';
import { ConfigError } from '../errors.js';
import { diffSnapshots } from './diff-snapshots.js';
import { parseSnapshot } from './parse-snapshot.js';
import type { Snapshot } from './snapshot.js';

function snapshotOf(distributions: [string, string, string?][]): Snapshot {
  return {
    schemaVersion: 1,
    environment: {
      python: null,
      sitePackages: [],
      distributions: distributions.map(([name, version, source]) => ({
        name,
        version,
        installer: 'pip',
        source: source ?? 'index',
      })),
    },
  };
}

describe('diffSnapshots', () => {
  it('sorts changes into upgraded, downgraded, changed, added and removed', () => {
    const before = snapshotOf([
      ['flashinfer-python', '0.6.3'],
      ['torch', '2.10.0+cu128'],
      ['numpy', '2.2.6'],
      ['gone', '1.0'],
      ['Same', '1.0'],
    ]);
    const after = snapshotOf([
      ['flashinfer_python', '0.6.4'],
      ['torch', '2.10.0+cu130'],
      ['numpy', '2.1.0'],
      ['new', '0.1'],
      ['same', '1.0'],
    ]);
    expect(diffSnapshots(before, after)).toEqual({
      upgraded: [
        { name: 'flashinfer_python', from: '0.6.3', to: '0.6.4' },
        { name: 'torch', from: '2.10.0+cu128', to: '2.10.0+cu130' },
      ],
      downgraded: [{ name: 'numpy', from: '2.2.6', to: '2.1.0' }],
      changed: [],
      added: [{ name: 'new', version: '0.1', installer: 'pip', source: 'index' }],
      removed: [{ name: 'gone', version: '1.0', installer: 'pip', source: 'index' }],
    });
  });

  it('reports a reinstall from another source as changed', () => {
    const diff = diffSnapshots(
      snapshotOf([['vllm', '0.16.0']]),
      snapshotOf([['vllm', '0.16.0', 'editable file:///src/vllm']]),
    );
    expect(diff.changed).toEqual([
      {
        name: 'vllm',
        from: '0.16.0',
        to: '0.16.0',
        fromSource: 'index',
        toSource: 'editable file:///src/vllm',
      },
    ]);
  });
});

describe('parseSnapshot', () => {
  it('accepts what createSnapshot writes', () => {
    const snapshot = snapshotOf([['torch', '2.10.0']]);
    expect(parseSnapshot(JSON.stringify(snapshot), 'a.json')).toEqual(snapshot);
  });

  it.each([
    ['{ nope', /^old\.json is not valid JSON/],
    [
      '{"schemaVersion": 2, "environment": {}}',
      /^old\.json is not a vigil snapshot \(schemaVersion 1\): schemaVersion/,
    ],
    ['[]', /^old\.json is not a vigil snapshot/],
  ])('rejects %j with one line naming the file', (text, message) => {
    expect(() => parseSnapshot(text, 'old.json')).toThrow(ConfigError);
    expect(() => parseSnapshot(text, 'old.json')).toThrow(message);
  });
});
