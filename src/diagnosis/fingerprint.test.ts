import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findHexRun, maskVariable, needsSpacesFolded } from './fingerprint.js';

/** The patterns maskVariable's faster passes stand for. */

const byPatterns = (text: string): string => {
  let masked = text.slice(0, 500);
  masked = masked.replace(/0x[0-9a-f]+/gi, 'H').replace(/\b[\w-]*?[0-9a-f]{12,}\b/gi, 'I');
  masked = masked.replace(/(?:\/[\w.@+-]+)+\/?/g, 'P');
  masked = masked
    .replace(/\b(?:rank|pid|tp|dp|gpu|device|cuda:)\s*[=:]?\s*\d+/gi, 'R')
    .replace(/\d+(?:\.\d+)?/g, 'N')
    .replace(/\s+/g, ' ');
  return masked.trim();
};

describe('maskVariable', () => {
  it.each([
    [
      'a request id with its prefix',
      'Error in request chatcmpl-7498c558d3ea57635ee115995f967a3b: prompt too long',
      'Error in request I: prompt too long',
    ],
    ['a hex run that ends inside a word is no id', 'deadbeef0123456789zz', 'deadbeefNzz'],
    ['an id after a dash', 'x -0123456789abcdef y', 'x -I y'],
    ['two ids, the dash taken by the second', 'a0123456789ab-0123456789abcd', 'II'],
    ['short hex stays', 'cafe babe', 'cafe babe'],
    ['a run led by a dash keeps it', 'x --0123456789abcdef y', 'x --I y'],
    ['hex past the id run is not all of it', 'req_0123456789abcdefzz', 'req_Nabcdefzz'],
    ['ranks, numbers and paths', 'rank 3 failed at /opt/x.py line 12', 'R failed at P line N'],
    ['spaces folded', 'a \t b\u00a0\u00a0c', 'a b c'],
  ])('%s', (_, text, expected) => {
    expect(maskVariable(text)).toBe(expected);
  });

  it('masks as the plain passes do, on strings spelled from ids, words, spaces and separators', () => {
    const piece = fc.constantFrom(
      '0123456789ab',
      'cdef',
      'Ab',
      'g',
      '_',
      '-',
      ' ',
      ':',
      'x1',
      'é',
      '0x',
      '.',
      'chatcmpl-',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (parts) => {
        const text = parts.join('');
        expect(maskVariable(text)).toBe(byPatterns(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('masks every line of the real logs in the repository as the plain passes do', () => {
    const files = ['examples', 'test/fixtures'].flatMap((dir) =>
      fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => path.join(dir, name)),
    );
    const lines = files
      .filter((file) => /\.(?:log|txt)$/.test(file) && fs.statSync(file).isFile())
      .flatMap((file) => fs.readFileSync(file, 'utf8').split('\n'));
    expect(lines.length).toBeGreaterThan(5_000);
    for (const line of lines) expect(maskVariable(line)).toBe(byPatterns(line));
    // Every line of every log here: its time grows with the fixtures.
  }, 180_000);

  it('finds the first twelve hex digits in a row from a place as the regex does', () => {
    const byRegex = (text: string, from: number): number => {
      const found = /[0-9a-f]{12}/gi;
      found.lastIndex = from;
      return found.exec(text)?.index ?? -1;
    };
    const piece = fc.constantFrom('0', '9', 'a', 'F', 'g', 'é', ' ', '-', '0123456789a', 'bcdef01');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(60), (parts, from) => {
        const text = parts.join('');
        expect(findHexRun(text, from)).toBe(byRegex(text, from));
      }),
      { numRuns: 5000 },
    );
  });

  it('tells spaces to fold as the regex does, for every code unit alone, after a space and doubled', () => {
    const differ: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      for (const text of [c, ` ${c}`, `${c}${c}`, `x${c}y`]) {
        if (needsSpacesFolded(text) !== /\s\s|[^\S ]/.test(text)) differ.push(JSON.stringify(text));
      }
    }
    expect(differ).toEqual([]);
  });
});
