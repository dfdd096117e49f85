import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../session.js';
import { alternationOf, anyOf, answerByPass, listedPatterns, passAnswers } from './any-of.js';
import { CAUSE_HINTS, DEATH_MARKERS, READY_MARKERS, START_MARKERS } from './markers.js';
import { MARKERS, STRUCTURE, TRIGGER } from './may-matter.js';
import { NOISE_PATTERNS } from './noise.js';
import { SHUTDOWN_PHRASES, STOP_REQUESTS } from './shutdown.js';
import { WRAPPER_PATTERNS } from './wrappers.js';
import { repositoryLogs } from '../../../test/helpers/logs-under.js';

const ROOT = join(import.meta.dirname, '../../..');

/** The lists anyOf is asked about, and the plain alternation of each: what it must answer on every line. */
const LISTS: [string, readonly RegExp[]][] = [
  ['start markers', START_MARKERS],
  ['ready markers', READY_MARKERS],
  ['death markers', DEATH_MARKERS],
  ['cause hints', CAUSE_HINTS],
  ['noise', NOISE_PATTERNS],
  ['stop requests', STOP_REQUESTS],
  ['shutdown phrases', SHUTDOWN_PHRASES],
  ['wrappers', WRAPPER_PATTERNS],
  ['may matter', [TRIGGER, STRUCTURE, MARKERS]],
];

describe('anyOf', () => {
  // As for a long log, so the tests below go through the pass over the lists' words.
  answerByPass();

  it('answers by the pass once told the log is long', () => {
    expect(passAnswers()).toBe(true);
  });

  it.each([
    ['a pattern with a word', [/out of memory/], 'CUDA out of memory', true],
    ['case folded by its own flag', [/OutOfMemory/i], 'outofmemory', true],
    ['not folded without it', [/OutOfMemory/], 'outofmemory', false],
    ['a pattern without a fixed word, tested as is', [/\d{3,}/], 'code 500', true],
    ['Unicode folding, tested as is', [/k/iu], '\u212A', true],
    ['a line start', [/^Copy$/], 'Copy', true],
  ])('%s', (_, patterns, text, expected) => {
    expect(anyOf(patterns)(text)).toBe(expected);
  });

  it('answers as the plain alternation of each list on every line of the repository’s logs', () => {
    const logs = repositoryLogs(ROOT);
    expect(logs.length).toBeGreaterThan(100);
    const gated = LISTS.map(([, patterns]) => anyOf(patterns));
    const plain = LISTS.map(([, patterns]) => {
      const compiled = patterns.map((p) => new RegExp(p.source, p.flags.replace('g', '')));
      return (text: string) => compiled.some((p) => p.test(text));
    });
    const differ: string[] = [];
    let tested = 0;
    for (const path of logs) {
      for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
        tested++;
        LISTS.forEach(([name], i) => {
          if ((gated[i] as (t: string) => boolean)(line) !== (plain[i] as (t: string) => boolean)(line)) {
            differ.push(`${name}: ${line.slice(0, 160)}`);
          }
        });
      }
    }
    expect(tested).toBeGreaterThan(5_000);
    expect(differ).toEqual([]);
    // Every list on every line of every log here: over half a minute on a busy 2-core machine.
  }, 180_000);

  it("answers as the plain alternation while its patterns' words are looked for first, on every log's first lines", () => {
    // A list's first ONE_BY_ONE questions, each pattern run only on a text holding one of its words until
    // it has looked for them LOOKS times: a fresh list for each log, so each log's start is asked anew.
    const logs = repositoryLogs(ROOT);
    const plain = LISTS.map(([, patterns]) => {
      const compiled = patterns.map((p) => new RegExp(p.source, p.flags.replace('g', '')));
      return (text: string) => compiled.some((p) => p.test(text));
    });
    const differ: string[] = [];
    for (const path of logs) {
      const oneByOne = LISTS.map(([, patterns]) => alternationOf(patterns) ?? (() => false));
      for (const line of readFileSync(path, 'utf8').split(/\r?\n/).slice(0, 500)) {
        LISTS.forEach(([name], i) => {
          if ((oneByOne[i] as (t: string) => boolean)(line) !== (plain[i] as (t: string) => boolean)(line)) {
            differ.push(`${name}: ${line.slice(0, 160)}`);
          }
        });
      }
    }
    expect(differ).toEqual([]);
  }, 180_000);

  it('answers alike whether a list is tested one pattern at a time or as one alternation', () => {
    // A short log's questions test the patterns one by one (alternationOf): the same answer as their
    // alternation only while no pattern refers to a group by number or name, which joining renumbers.
    const patterns = listedPatterns();
    expect(patterns.length).toBeGreaterThan(100);
    const referring = patterns.filter((p) => /\\[1-9]|\\k<|\(\?<[A-Za-z]/.test(p.source));
    expect(referring.map((p) => p.source)).toEqual([]);
    const list = anyOf([/^first (?:line|row)$/, /second/i, /\bthird\b/]);
    for (let i = 0; i < 600; i++) {
      expect(list('first line')).toBe(true);
      expect(list('SECOND')).toBe(true);
      expect(list('the third one')).toBe(true);
      expect(list('first line and more')).toBe(false);
      expect(list('thirds')).toBe(false);
    }
  });
});
