// The one tester for every built-in signature: metadata, registry parity, and its fixtures both ways.
// Authors write no test code; they add fixtures/matches/*.log and fixtures/ignores/*.log.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../diagnosis/index.js';
import type { Diagnosis } from '../types/diagnosis.js';
import template from './_template/signature.js';
import { builtinSignatures, fixtureNames } from './index.js';
import { validateSignature } from './schema.js';

const here = dirname(fileURLToPath(import.meta.url));
const folders = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
  .map((entry) => entry.name)
  .sort();

function fixturesOn(id: string, kind: 'matches' | 'ignores'): string[] {
  const dir = join(here, id, 'fixtures', kind);
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name.endsWith('.log'))
        .sort()
    : [];
}

function readFixture(id: string, kind: 'matches' | 'ignores', name: string): string {
  return readFileSync(join(here, id, 'fixtures', kind, name), 'utf8');
}

/** What the diagnosis chose, for a failure message that says what to look at. */
function chosen(diagnosis: Diagnosis): string {
  const cause = diagnosis.rootCause;
  return (
    `verdict ${diagnosis.verdict}, signature ${diagnosis.signature?.id ?? 'none'}, root cause ` +
    (cause === null
      ? 'none'
      : `line ${cause.lineNumber}: ${cause.exception ?? '(no exception)'}: ${cause.message}`)
  );
}

describe('the signature registry', () => {
  it('lists exactly the signature folders (if not, run npm run signatures:generate)', () => {
    expect(builtinSignatures.map((signature) => signature.id).sort()).toEqual(folders);
  });

  it('has unique ids', () => {
    const ids = builtinSignatures.map((signature) => signature.id);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
  });

  it('knows the fixture names on disk (if not, run npm run signatures:generate)', () => {
    for (const id of folders) {
      expect(fixtureNames[id], id).toEqual({
        matches: fixturesOn(id, 'matches'),
        ignores: fixturesOn(id, 'ignores'),
      });
    }
  });

  it('scaffolds from a valid template', () => {
    expect(validateSignature(template)).toEqual([]);
  });
});

describe.each(builtinSignatures.map((signature) => [signature.id, signature] as const))(
  '%s',
  (id, signature) => {
    const matches = fixturesOn(id, 'matches');
    const ignores = fixturesOn(id, 'ignores');

    it('is valid (schema, placeholders, safe patterns)', () => {
      expect(validateSignature(signature)).toEqual([]);
    });

    it('sits in a folder named after its id', () => {
      expect(folders).toContain(signature.id);
    });

    it('has at least one matches/ and one ignores/ fixture', () => {
      expect(matches.length, `add src/signatures/${id}/fixtures/matches/<scenario>.log`).toBeGreaterThan(0);
      expect(ignores.length, `add src/signatures/${id}/fixtures/ignores/<scenario>.log`).toBeGreaterThan(0);
    });

    if (matches.length > 0) {
      it.each(matches)('matches/%s yields it', (name) => {
        const diagnosis = diagnose(readFixture(id, 'matches', name));
        expect(diagnosis.signature?.id, chosen(diagnosis)).toBe(id);
        expect(diagnosis.signature?.fix, 'every {placeholder} of fix is filled').not.toMatch(
          /\{[A-Za-z_$][\w$]*\}/,
        );
      });
    }

    if (ignores.length > 0) {
      it.each(ignores)('ignores/%s does not yield it', (name) => {
        const diagnosis = diagnose(readFixture(id, 'ignores', name));
        expect(diagnosis.signature?.id, chosen(diagnosis)).not.toBe(id);
      });
    }
  },
);
