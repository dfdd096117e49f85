import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FACTS } from '../define-engine-progress.js';
import { createProgressTracker } from '../track-progress.js';
import { ENGINE_PROGRESS } from './index.js';

// One generic tester for every engine's phase declarations (the signatures' RuleTester pattern): the
// metadata is well-formed, and every phase and the ready line are proven by a real-format fixture.

const fixturesDir = new URL('../fixtures/', import.meta.url);
const fixtures = readdirSync(fixturesDir)
  .filter((name) => name.endsWith('.log'))
  .map((name) => ({ name, text: readFileSync(new URL(name, fixturesDir), 'utf8') }));

function linesOf(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

describe.each(ENGINE_PROGRESS.map((spec) => [spec.engine, spec] as const))('%s phases', (engine, spec) => {
  const own = fixtures.filter((fixture) => fixture.name.startsWith(`${engine}-`));

  it('has fixtures named for the engine', () => {
    expect(own.length).toBeGreaterThan(0);
  });

  it('declares unique kebab-case phase ids', () => {
    const ids = spec.phases.map((phase) => phase.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/);
  });

  it('captures only known facts', () => {
    const patterns = [...spec.phases.flatMap((phase) => phase.lines), ...spec.facts];
    for (const pattern of patterns) {
      for (const [, name] of pattern.source.matchAll(/\(\?<(\w+)>/g)) {
        expect(Object.keys(FACTS), `${String(pattern)} captures ${name}`).toContain(name);
      }
    }
  });

  it.each(spec.phases.map((phase) => [phase.id, phase] as const))(
    'phase %s occurs in a fixture',
    (_id, phase) => {
      const seen = own.some((fixture) =>
        linesOf(fixture.text).some((line) => phase.lines.some((re) => re.test(line))),
      );
      expect(seen).toBe(true);
    },
  );

  it('has its ready line in a fixture', () => {
    const seen = own.some((fixture) =>
      linesOf(fixture.text).some((line) => spec.ready.some((re) => re.test(line))),
    );
    expect(seen).toBe(true);
  });

  it('recognises its own fixtures from the log alone', () => {
    for (const fixture of own) {
      const tracker = createProgressTracker();
      for (const line of linesOf(fixture.text)) tracker.push(line, 0);
      expect(tracker.state().engine, fixture.name).toBe(engine);
    }
  });
});

describe('no engine claims another engine’s healthy log', () => {
  it.each(fixtures.map((fixture) => [fixture.name, fixture] as const))('%s', (name, fixture) => {
    const tracker = createProgressTracker();
    for (const line of linesOf(fixture.text)) tracker.push(line, 0);
    expect(name.startsWith(`${tracker.state().engine ?? 'none'}-`)).toBe(true);
  });
});
