import { compare, explain, satisfies, valid } from '@renovatebot/pep440';

/**
 * PEP 440 helpers over @renovatebot/pep440, closing the gaps that matter for installed packages:
 * installed pre-releases and dev builds satisfy ranges (pip checks with prereleases=True), legacy
 * parenthesised specifiers `(>=1.0)` are accepted, and `==X+local` compares local labels strictly,
 * which the library gets wrong (it accepts 2.9.0+cu126 for ==2.9.0+cu128).
 */

// Environments repeat the same (version, specifier) pairs (python_version markers above all), and the
// library re-parses both on every call; a bounded memo keeps a 600-package check cheap.
const memo = new Map<string, boolean | null>();

/** True when `version` satisfies every clause of `specifier`; null when `version` is not PEP 440. */
export function satisfiesSpecifier(version: string, specifier: string): boolean | null {
  const key = `${version}\0${specifier}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  if (memo.size > 20_000) memo.clear();
  const result = computeSatisfies(version, specifier);
  memo.set(key, result);
  return result;
}

function computeSatisfies(version: string, specifier: string): boolean | null {
  if (!isVersion(version)) return null;
  const clauses = stripParentheses(specifier)
    .split(',')
    .map((clause) => clause.trim())
    .filter((clause) => clause !== '');
  return clauses.every((clause) => satisfiesClause(version, clause));
}

function satisfiesClause(version: string, clause: string): boolean {
  const match = /^(===|==|!=|~=|<=|>=|<|>)\s*(\S+)$/.exec(clause);
  if (match === null) return false;
  const [, operator = '', target = ''] = match;
  if (operator === '===') return version.trim().toLowerCase() === target.toLowerCase();
  const plain = comparePlainReleases(version, target);
  if (plain !== null && operator in PLAIN_OPERATORS) return PLAIN_OPERATORS[operator]?.(plain) ?? false;
  const targetLocal = localLabel(target);
  if ((operator === '==' || operator === '!=') && targetLocal !== null && !target.includes('*')) {
    const equal =
      satisfies(version, `==${publicVersion(target)}`, { prereleases: true }) &&
      normalizeLocal(localLabel(version) ?? '') === normalizeLocal(targetLocal);
    return operator === '==' ? equal : !equal;
  }
  return satisfies(version, `${operator}${target}`, { prereleases: true });
}

/**
 * The operators whose meaning between two plain releases (digits and dots only: no epoch, pre, post, dev or
 * local part) is the order of their zero-padded numbers. Most requirements of an environment are such
 * (`numpy>=1.22`), and the library's parse of both sides cost most of a 600-package check's requirement
 * pass; `~=` and `.*` keep the library's reading of prefixes.
 */
const PLAIN_OPERATORS: Partial<Record<string, (order: number) => boolean>> = {
  '==': (order) => order === 0,
  '!=': (order) => order !== 0,
  '<=': (order) => order <= 0,
  '>=': (order) => order >= 0,
  '<': (order) => order < 0,
  '>': (order) => order > 0,
};

const PLAIN_RELEASE = /^\d{1,15}(?:\.\d{1,15})*$/;

/** -1, 0 or 1 for two plain releases (`1.10` > `1.9`, `1.0` = `1`); null when either is anything else. */
export function comparePlainReleases(a: string, b: string): number | null {
  if (!PLAIN_RELEASE.test(a) || !PLAIN_RELEASE.test(b)) return null;
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const difference = Number(left[i] ?? 0) - Number(right[i] ?? 0);
    if (difference !== 0) return difference < 0 ? -1 : 1;
  }
  return 0;
}

function stripParentheses(specifier: string): string {
  const trimmed = specifier.trim();
  return trimmed.startsWith('(') && trimmed.endsWith(')') ? trimmed.slice(1, -1) : trimmed;
}

/** The local label after `+`, or null: `2.10.0+cu130` → `cu130`. */
export function localLabel(version: string): string | null {
  const plus = version.indexOf('+');
  return plus === -1 ? null : version.slice(plus + 1);
}

const validity = new Map<string, boolean>();

/** True when `text` is a PEP 440 version (memoized: marker evaluation asks about the same few strings). */
export function isVersion(text: string): boolean {
  // A plain release (digits and dots) is always valid: most installed versions, spared the library's parse.
  if (PLAIN_RELEASE.test(text)) return true;
  let known = validity.get(text);
  if (known === undefined) {
    if (validity.size > 20_000) validity.clear();
    known = valid(text) !== null;
    validity.set(text, known);
  }
  return known;
}

/** The version without its local label: `2.10.0+cu130` → `2.10.0`. */
export function publicVersion(version: string): string {
  const plus = version.indexOf('+');
  return (plus === -1 ? version : version.slice(0, plus)).trim();
}

function normalizeLocal(label: string): string {
  return label.toLowerCase().replace(/[-_]/g, '.');
}

/** Orders two versions per PEP 440; versions that are not PEP 440 compare as strings, after valid ones. */
export function compareVersions(a: string, b: string): number {
  const aValid = valid(a) !== null;
  const bValid = valid(b) !== null;
  if (aValid && bValid) return compare(a, b);
  if (aValid !== bValid) return aValid ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when both are PEP 440 and equal ignoring local labels (`0.6.4` and `0.6.4+cu130`). */
export function samePublicVersion(a: string, b: string): boolean {
  if (valid(a) === null || valid(b) === null) return publicVersion(a) === publicVersion(b);
  return compare(publicVersion(a), publicVersion(b)) === 0;
}

/** The release segments (`2.10.0rc1` → [2, 10, 0]), or null when not PEP 440. */
export function releaseOf(version: string): number[] | null {
  return explain(version)?.release ?? null;
}

export interface CudaVariant {
  /** The label as written: `cu130`, `cpu`, `rocm6.4`. */
  label: string;
  /** `13.0` for cu130, `12.8` for cu128; null for cpu and rocm. */
  cuda: string | null;
}

/** Reads the CUDA variant from a local label (`+cu130`, `+cpu`, `+rocm6.4`); null for other labels. */
export function cudaVariantOf(version: string): CudaVariant | null {
  const label = localLabel(version)?.toLowerCase() ?? null;
  if (label === null) return null;
  const cuda = /^cu(\d+)(\d)$/.exec(label);
  if (cuda !== null) return { label, cuda: `${cuda[1]}.${cuda[2]}` };
  if (label === 'cpu' || /^rocm[\d.]+$/.test(label) || label === 'xpu') return { label, cuda: null };
  return null;
}

/** The major of a CUDA version string (`12.8` → 12), or null. */
export function cudaMajor(cuda: string | null): number | null {
  if (cuda === null) return null;
  const major = Number.parseInt(cuda, 10);
  return Number.isFinite(major) ? major : null;
}
