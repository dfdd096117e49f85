import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENGINE_PROGRESS, type EngineProgressSpec } from '../../progress/index.js';
import type { Engine } from '../../types/diagnosis.js';
import { firstPhaseOpenedBy } from './split-log-starts.js';

/** What firstPhaseOpenedBy answered before its joined regex: each spec's patterns tried in turn. */
function oneByOne(line: string, engine: Engine | null, specs: readonly EngineProgressSpec[]) {
  return specs
    .filter((spec) => engine === null || spec.engine === engine)
    .find((spec) => spec.phases[0]?.lines.some((pattern) => pattern.test(line)) === true);
}

const ENGINES: (Engine | null)[] = [null, ...new Set(ENGINE_PROGRESS.map((spec) => spec.engine))];

describe('firstPhaseOpenedBy', () => {
  it("answers as each spec's first-phase patterns tried in turn, on the fixtures' lines", () => {
    const folders = ['test/supervision/fixtures/logs', 'examples'];
    const lines = folders.flatMap((folder) =>
      readdirSync(folder)
        .filter((name) => name.endsWith('.log'))
        .flatMap((name) => readFileSync(join(folder, name), 'utf8').split('\n')),
    );
    // And one line of each first phase, as its own spec would read it.
    lines.push('INFO vLLM API server version 0.11.0', 'server_args=ServerArgs(model=x)', 'build: 4000 (abc)');
    let opened = 0;
    for (const engine of ENGINES) {
      for (const line of lines) {
        const expected = oneByOne(line, engine, ENGINE_PROGRESS);
        if (expected !== undefined) opened++;
        expect(firstPhaseOpenedBy(line, engine)).toBe(expected);
      }
    }
    expect(opened).toBeGreaterThan(3);
  });

  it('tries patterns one by one where they cannot be joined (flags, backreferences)', () => {
    const spec = (engine: Engine, lines: RegExp[]) =>
      ({
        ...(ENGINE_PROGRESS[0] as EngineProgressSpec),
        engine,
        phases: [{ id: 'a', label: 'a', lines }],
      }) as EngineProgressSpec;
    const specs = [spec('vllm', [/^(ab)\1$/]), spec('sglang', [/STARTING/i])];
    for (const line of ['abab', 'abcd', 'starting up', 'nothing'])
      expect(firstPhaseOpenedBy(line, null, specs)).toBe(oneByOne(line, null, specs));
    expect(firstPhaseOpenedBy('starting up', null, specs)?.engine).toBe('sglang');
  });
});
