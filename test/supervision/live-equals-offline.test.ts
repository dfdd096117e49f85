import { spawn } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDiagnosisSession, diagnose } from '../../src/diagnosis/index.js';
import type { WatchEvent } from '../../src/supervision/watch/watch-session.js';
import { watchLog } from '../../src/supervision/watch/watch-log.js';
import { REPLAY, logFixture, tempDir, vigil } from './helpers/supervise-fixture.js';

// Live equals offline, with real processes: a server prints a real log with pauses at random lines; the
// report `vigil run` or `vigil watch` gives must be what `vigil diagnose` says of the same lines, whatever
// the pauses (issue 30: a dead engine's report was taken when the supervisor decided, and missed lines
// that came after, or read a line that was never printed).

/** vLLM V1's engine core dies of OOM while its API process lives on (a real log, test/fixtures/live). */
const OOM_API_LIVES = fileURLToPath(
  new URL('../fixtures/live/vllm-engine-oom-api-lives.log', import.meta.url),
);
/** The engine's death line, its OOM traceback, then the API process's output handler failing. */
const DEAD_WHILE_SERVING = logFixture('vllm-engine-dead-while-serving');

/** What a report says of the log, as `vigil diagnose --format json` says it. */
function verdictOf(report: Record<string, unknown>): unknown {
  const input = report.input as { lines: number };
  const { verdict, rootCause, signature, general, groups, evidence, symptoms, engine } = report;
  return { verdict, rootCause, signature, general, groups, evidence, symptoms, engine, lines: input.lines };
}

function offline(text: string): unknown {
  return verdictOf(JSON.parse(JSON.stringify(diagnose(text))) as Record<string, unknown>);
}

/** Pauses after random lines: up to three, each long enough to pass the death grace (1 s) or not. */
const pausesFor = (lines: number) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: lines }), { minLength: 1, maxLength: 3 })
    .chain((at) =>
      fc.tuple(fc.constant(at), fc.array(fc.integer({ min: 0, max: 1600 }), { minLength: 3, maxLength: 3 })),
    )
    .map(([at, ms]) => at.map((n, i) => `${n}:${ms[i] ?? 0}`).join(','));

/** A signature's meaning without the fix, which is aimed at the place the server runs. */
function withoutFix(signature: Record<string, unknown> | null): Record<string, unknown> | null {
  if (signature === null) return null;
  const { fix: _fix, verify: _verify, ...meaning } = signature;
  return meaning;
}

const lineCount = (path: string): number => readFileSync(path, 'utf8').replace(/\n$/, '').split('\n').length;

describe('vigil run: the crash report reads the lines its --log copy holds', () => {
  const cases = [
    {
      name: 'an engine that dies while its process lives (vigil stops it)',
      log: DEAD_WHILE_SERVING,
      end: ['--hang'],
    },
    {
      name: 'the engine OOM, then the API process fails and exits',
      log: OOM_API_LIVES,
      end: ['--exit', '1'],
    },
  ];
  for (const { name, log, end } of cases) {
    it(
      name,
      async () => {
        await fc.assert(
          fc.asyncProperty(pausesFor(lineCount(log)), async (pauses) => {
            const copy = join(tempDir(), 'server.log');
            const argv = ['run', '--no-preflight', '--quiet', '--no-history', '--kill-grace', '2s'];
            const server = [process.execPath, REPLAY, log, '--delay', '30', '--pauses', pauses, ...end];
            const result = await vigil([...argv, '--format', 'json', '--log', copy, '--', ...server]);
            expect(result.code).not.toBe(0);
            const report = JSON.parse(result.stdout) as Record<string, unknown>;
            expect(verdictOf(report)).toEqual(offline(readFileSync(copy, 'utf8')));
          }),
          { numRuns: 3 },
        );
      },
      120_000,
    );
  }
});

/** A docker stand-in whose `logs` runs the server as the container (no daemon here; four-servers.test.ts). */
function fakeDocker(dir: string, server: string[]): string {
  const bin = join(dir, 'docker-bin');
  mkdirSync(bin, { recursive: true });
  const state = join(dir, 'container-exit');
  const quoted = server.map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
  writeFileSync(
    join(bin, 'docker'),
    `#!/bin/sh
case "$1" in
  inspect)
    if [ -f ${state} ]; then running=false; code=$(cat ${state}); else running=true; code=0; fi
    printf '[{"State":{"Running":%s,"Restarting":false,"ExitCode":%s,"OOMKilled":false,"StartedAt":"2026-12-01T10:00:00.000000000Z"},"RestartCount":0}]\\n' "$running" "$code" ;;
  logs)
    ${quoted} 2>&1 &
    pid=$!
    trap 'kill $pid 2>/dev/null' TERM
    exec 2>/dev/null
    wait $pid
    echo $? > ${state} ;;
  *) exit 1 ;;
esac
`,
  );
  chmodSync(join(bin, 'docker'), 0o755);
  return `${bin}:${process.env.PATH ?? ''}`;
}

describe('vigil watch: the report reads the lines the container printed up to it', () => {
  it('an engine that dies while its container runs on: the lines up to the report, as diagnose reads them', async () => {
    const log = DEAD_WHILE_SERVING;
    const lines = readFileSync(log, 'utf8').replace(/\n$/, '').split('\n');
    await fc.assert(
      fc.asyncProperty(pausesFor(lines.length), async (pauses) => {
        const dir = tempDir();
        const server = [process.execPath, REPLAY, log, '--delay', '30', '--pauses', pauses, '--hang'];
        const result = await vigil(['watch', '--docker', 'llm', '--format', 'json'], {
          PATH: fakeDocker(dir, server),
        });
        expect(result.code).toBe(1);
        const report = JSON.parse(result.stdout) as Record<string, unknown>;
        // The watch leaves the server running: its report reads the lines printed until it was given.
        const seen = (report.input as { lines: number }).lines;
        // The fix is aimed at the container (the image, then recreate it); diagnose of a bare file aims it at this host.
        type Signed = { signature: Record<string, unknown> | null };
        const { signature, ...rest } = verdictOf(report) as Signed;
        const expected = offline(`${lines.slice(0, seen).join('\n')}\n`) as Signed;
        expect(rest).toEqual({ ...expected, signature: undefined });
        expect(withoutFix(signature)).toEqual(withoutFix(expected.signature));
        if (signature?.id === 'cuda-out-of-memory') {
          expect(signature.fix).toContain("container's command");
          expect(signature.verify).toBe('vigil diagnose --docker llm');
        }
      }),
      { numRuns: 3, timeout: 30_000 },
    );
  }, 150_000);
});

/** A whole committed vLLM log: banner, load, the engine core's import error at kernel warm-up (fresh set b). */
const START_UP_FAILURE = fileURLToPath(
  new URL('../fixtures/fresh-2026-12-03b/vllm-505.log', import.meta.url),
);
/** Its first traceback begins here: pauses before it are a quiet load, as in every real start. */
const FIRST_TRACEBACK_LINE = 96;

describe('vigil watch --follow --log: a start judged on its silence reads the file as diagnose does', () => {
  it('quiet pauses in the load leave the report of the failure as diagnose reads the same lines', async () => {
    // Every line of the file is in the report (its line count is diagnose's, lone CRs included).
    const pauses = fc
      .uniqueArray(fc.integer({ min: 1, max: FIRST_TRACEBACK_LINE - 1 }), { minLength: 1, maxLength: 2 })
      .map((at) => at.map((n) => `${n}:3500`).join(','));
    await fc.assert(
      fc.asyncProperty(pauses, async (pausesAt) => {
        const path = join(tempDir(), 'server.log');
        writeFileSync(path, '');
        const controller = new AbortController();
        const failures: Extract<WatchEvent, { type: 'failure' }>[] = [];
        const watching = watchLog({
          path,
          pollMs: 20,
          // Each pause is longer: the watch looks at the start's lines in every one of them. Long enough
          // that a busy machine's stall while the replay writes the failure is not taken for its silence
          // (1.5 s was, once in a run at a load of 5 on two cores).
          fatalQuietMs: 3000,
          signal: controller.signal,
          createDiagnosisSession: () => createDiagnosisSession(),
          onEvent: (event) => {
            if (event.type === 'failure') failures.push(event);
          },
        });
        // The server: a real process whose output goes to the file, as `server >> log` does.
        const fd = openSync(path, 'a');
        const server = spawn(
          process.execPath,
          [REPLAY, START_UP_FAILURE, '--pauses', pausesAt, '--exit', '1'],
          { stdio: ['ignore', fd, fd] },
        );
        closeSync(fd);
        await new Promise((done) => server.once('exit', done));
        const deadline = Date.now() + 15_000;
        while (failures.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        controller.abort();
        await watching;
        const failure = failures[0]?.failure;
        expect(failure).toBeDefined();
        const report = JSON.parse(JSON.stringify(failure?.diagnosis)) as Record<string, unknown>;
        expect(verdictOf(report)).toEqual(offline(readFileSync(path, 'utf8')));
      }),
      { numRuns: 2 },
    );
  }, 120_000);
});
