import { lastSegment, type Frame } from '../../parsing/traceback.js';
import type { Category, GeneralCategory } from '../../types/diagnosis.js';
import type { Phase } from '../knowledge/phases.js';
import { mayMatch } from '../search/pattern-words.js';
import { CATEGORY_RULES, HOST_RESOURCE, PROGRAM_BUG, type CategoryRule } from './categories.js';

/** What any root cause shows, whatever its engine. */
export interface CauseEvidence {
  exception: string | null;
  message: string;
  frames: readonly Frame[];
  phase: Phase | null;
}

/** How much each kind of evidence weighs: a named class says most, a package least. */
const WEIGHT = { exception: 4, genericException: 1, words: 3, packages: 2 } as const;
/** The innermost frames: where it was raised, and the library call around it. */
const RAISE_FRAMES = 3;
const SEARCH_WORDS = 14;
const MAX_EXTRA_WORDS = 2;
/** A class any code raises, alone, places nothing (`AssertionError: Error in memory profiling`). */
const MIN_SCORE = 2;

const OTHER: CategoryRule = CATEGORY_RULES.find((r) => r.category === 'other') ?? {
  category: 'other',
  meaning: 'The failure does not fall into a known kind.',
};

const GLOBAL_WORDS = new Map(
  CATEGORY_RULES.flatMap((rule) =>
    rule.words ? [[rule, new RegExp(rule.words.source, `${rule.words.flags}g`)]] : [],
  ),
);

function distinctMatches(rule: CategoryRule, text: string): string[] {
  const pattern = GLOBAL_WORDS.get(rule);
  // Most messages hold none of a category's words: its regex is then never compiled (search/pattern-words.ts).
  if (pattern === undefined || !mayMatch(pattern, text)) return [];
  const found = new Set<string>();
  for (const m of text.matchAll(pattern)) found.add(m[0].toLowerCase());
  return [...found];
}

/** The category a cause's evidence weighs most for, and on what basis. */
function weighEvidence(evidence: CauseEvidence): { rule: CategoryRule; basis: string[] } {
  const type = evidence.exception ?? '';
  const name = lastSegment(type);
  const modulePath = type.includes('.') ? type.slice(0, type.lastIndexOf('.')) : '';
  const sites = [modulePath, ...evidence.frames.slice(-RAISE_FRAMES).map((f) => f.file)].filter(Boolean);
  // Paths name places, not kinds (`sgl_kernel/sm100/...`, `llm/gguf/ggml-cuda.cu`): their words are left out.
  const text = `${type}: ${evidence.message}`.replace(/\S*\/\S*/g, ' ');
  const bug = PROGRAM_BUG.exec(evidence.message);
  if (bug !== null) return { rule: OTHER, basis: [`message: a program's own bug ("${bug[0]}")`] };
  let best: { rule: CategoryRule; score: number; basis: string[] } | null = null;
  for (const rule of CATEGORY_RULES) {
    const basis: string[] = [];
    let score = 0;
    if (rule.exceptions && name !== '' && rule.exceptions.test(name)) {
      score += rule.genericExceptions ? WEIGHT.genericException : WEIGHT.exception;
      basis.push(`exception ${name}`);
    }
    const words = distinctMatches(rule, text);
    if (words.length > 0) {
      // More than one of a category's phrases is more evidence, up to a point.
      score += WEIGHT.words + Math.min(words.length, MAX_EXTRA_WORDS + 1) - 1;
      basis.push(`message: ${words.map((w) => `"${w}"`).join(', ')}`);
    }
    const site = rule.packages ? sites.find((s) => rule.packages?.test(s)) : undefined;
    if (site !== undefined) {
      score += WEIGHT.packages;
      basis.push(`raised in ${site}`);
    }
    if (score >= MIN_SCORE && score > (best?.score ?? 0)) best = { rule, score, basis };
  }
  return best ?? { rule: OTHER, basis: ['nothing in the message points to a kind'] };
}

/**
 * Places a root cause in one of the categories from its evidence alone (categories.ts): a general
 * explanation for a failure no signature knows. Always gives one; `other` when nothing points anywhere. Pure.
 */
export function classifyCause(evidence: CauseEvidence): GeneralCategory {
  const host = HOST_RESOURCE.exec(evidence.message);
  const { rule, basis } =
    host === null
      ? weighEvidence(evidence)
      : { rule: OTHER, basis: [`message: the host's own resources ("${host[0]}")`] };
  if (evidence.phase !== null) basis.push(`during ${evidence.phase}`);
  return {
    category: rule.category,
    meaning: rule.meaning,
    searchUrl: searchUrl(lastSegment(evidence.exception ?? ''), evidence.message),
    basis,
  };
}

/**
 * What kind of failure a line speaks of, for telling which lines say one failure together: by its words
 * alone, so an allocation the host refused (`failed to allocate CPU buffer`) is of one kind with the
 * allocator lines around it, though the category said of it is `other`.
 */
export function kindOfCause(evidence: CauseEvidence): Category {
  return weighEvidence(evidence).rule.category;
}

/**
 * Words that differ between machines or must not leave one: ids, hashes, keys and tokens (long runs
 * that mix letters and digits), and whatever follows `=`.
 */
const VARYING_WORD = /^(?=.*\d)[\w.-]{16,}$|=/;

/**
 * A search for the message without what varies between machines (paths, numbers, addresses, names,
 * keys). Words are joined with `+`, so a secret that got through still reads as a word to redaction.
 */
export function searchUrl(exception: string, message: string): string {
  const words = (message.split('\n')[0] ?? '')
    .replace(/\S*[/\\]\S*/g, ' ')
    .replace(/\S*=\S*/g, ' ')
    .split(/\s+/)
    .filter((w) => !VARYING_WORD.test(w))
    .join(' ')
    .replace(/0x[0-9a-f]+|\b\d[\d.,:]*\w*/gi, ' ')
    .replace(/(['"`])[^'"`]{0,80}\1/g, ' ')
    .replace(/[^\w\s.-]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 1)
    .slice(0, SEARCH_WORDS);
  const query = [exception, ...words].filter(Boolean).map(encodeURIComponent).join('+');
  return `https://github.com/search?type=issues&q=${query}`;
}
