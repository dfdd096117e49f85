import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDiagnosisSession, diagnose, type DiagnosisSession } from '../../src/diagnosis/index.js';
import { OutputLineSplitter } from '../../src/supervision/split-output-lines.js';
import type { Diagnosis } from '../../src/types/diagnosis.js';

/**
 * Live equals offline: `vigil run` and `vigil watch` feed a session the server's output as it arrives
 * and ask it for a verdict whenever a line or the clock says so; `vigil diagnose` reads the same text at
 * once. The same log, cut at random points and asked at random moments, must end in the same diagnosis.
 * Real logs: failures of every runtime (Python tracebacks, a dead engine whose API process lives, C++,
 * Rust, Go, CUDA, NCCL shapes) and long healthy ones.
 */
const FIXTURES = new URL('../fixtures/', import.meta.url);
const LOGS = [
  // The engine core's OOM, then the API process's `AsyncLLM output_handler failed.` (issue 30).
  'live/vllm-engine-oom-api-lives.log',
  'fresh-2026-12-03b/vllm-503.log',
  'fresh-2026-12-03b/vllm-505.log',
  'fresh-2026-12-03b/vllm-519.log',
  'fresh-2026-12-03b/sglang-507.log',
  'fresh-2026-12-03b/tgi-602.log',
  'fresh-2026-12-03b/trtllm-601.log',
  'fresh-2026-12-03b/llamacpp-603.log',
  'fresh-2026-12-03b/ollama-605.log',
  'fresh-2026-12-03b/lmdeploy-514.log',
  'fresh-2026-12-03a/vllm-301.log',
  'fresh-2026-12-03a/vllm-311.log',
  'long-real/vllm-002.log',
  // Healthy: the verdict that nothing failed must not depend on when it was asked either.
  'fresh-2026-12-03b/vllm-h502.log',
  'fresh-2026-12-03b/ollama-h602.log',
  'fresh-2026-12-03b/llamacpp-h605.log',
];

const read = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');

/** Cut points (fractions of the text) and, at each piece, whether the session is asked for a verdict. */
const feeding = fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), peek: fc.boolean() }), {
  maxLength: 24,
});

type Feed = { at: number; peek: boolean }[];

/** The text cut at the given points, with the verdicts asked in between, as a driver with pauses would. */
function cut(text: string, feed: Feed): { piece: string; peek: boolean }[] {
  const points = [...new Set(feed.map((f) => Math.floor(f.at * text.length)))].sort((a, b) => a - b);
  const pieces: { piece: string; peek: boolean }[] = [];
  let from = 0;
  points.forEach((point, i) => {
    pieces.push({ piece: text.slice(from, point), peek: feed[i]?.peek ?? false });
    from = point;
  });
  pieces.push({ piece: text.slice(from), peek: false });
  return pieces;
}

/** What a driver reads from a diagnosis: everything but the byte count (lines are fed, not bytes). */
function verdictOf(diagnosis: Diagnosis): unknown {
  return { ...diagnosis, input: { ...diagnosis.input, bytes: 0 } };
}

describe('live equals offline: a log fed in pieces, asked at any moment, ends as diagnose reads it', () => {
  for (const name of LOGS) {
    it(name, () => {
      const text = read(name);
      const offline = diagnose(text);
      fc.assert(
        fc.property(feeding, fc.boolean(), (feed, asLines) => {
          const session = createDiagnosisSession();
          // `run` and `watch` split the output into lines themselves (OutputLineSplitter); a pipe of bytes
          // (`diagnose -`) pushes chunks.
          const splitter = new OutputLineSplitter();
          const give = (piece: string, to: DiagnosisSession): void => {
            if (!asLines) to.push(piece);
            else for (const line of splitter.push(piece)) to.pushLine(line);
          };
          for (const { piece, peek } of cut(text, feed)) {
            give(piece, session);
            if (peek) session.peek();
          }
          if (asLines) for (const line of splitter.end()) session.pushLine(line);
          const live = session.end();
          expect(asLines ? verdictOf(live) : live).toEqual(asLines ? verdictOf(offline) : offline);
        }),
        { numRuns: 12 },
      );
    });
  }
});
