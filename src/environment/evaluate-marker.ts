import { normalizeName } from './normalize-name.js';
import type { Marker, MarkerValue } from './parse-marker.js';
import { isVersion, satisfiesSpecifier } from './pep440.js';

/** Marker variable values; a missing key means "not known" (e.g. python_full_version from a bare folder). */
export type MarkerEnvironment = Readonly<Partial<Record<string, string>>>;

// Variables compared as PEP 440 versions when both sides parse (packaging's MARKERS_REQUIRING_VERSION).
const VERSION_VARIABLES = new Set([
  'python_version',
  'python_full_version',
  'implementation_version',
  'platform_release',
]);

/**
 * Evaluates a marker for one value of `extra` ('' for the base requirements, as pip does).
 * Three-valued: null when a variable the answer depends on is unknown.
 */
export function evaluateMarker(
  marker: Marker,
  environment: MarkerEnvironment,
  extra: string,
): boolean | null {
  if (marker.kind !== 'compare') {
    const left = evaluateMarker(marker.left, environment, extra);
    const right = evaluateMarker(marker.right, environment, extra);
    if (marker.kind === 'and') return left === false || right === false ? false : left && right;
    return left === true || right === true ? true : left === null || right === null ? null : false;
  }
  const { left, operator, right } = marker;
  if (isVariable(left, 'extra') || isVariable(right, 'extra')) {
    const other = isVariable(left, 'extra') ? right : left;
    if (!('literal' in other)) return false;
    if (operator === '==') return normalizeName(other.literal) === normalizeName(extra);
    if (operator === '!=') return normalizeName(other.literal) !== normalizeName(extra);
    return false;
  }
  const lhs = valueOf(left, environment);
  const rhs = valueOf(right, environment);
  if (lhs === undefined || rhs === undefined) return null;
  const versioned = [left, right].some((side) => 'variable' in side && VERSION_VARIABLES.has(side.variable));
  if (versioned && operator !== 'in' && operator !== 'not in') {
    if (isVersion(lhs) && isVersion(rhs.replace(/\.\*$/, '')))
      return satisfiesSpecifier(lhs, `${operator}${rhs}`) ?? compareStrings(lhs, operator, rhs);
  }
  return compareStrings(lhs, operator, rhs);
}

// String comparison as PEP 508 now specifies: ordered operators degrade to equality or false.
function compareStrings(lhs: string, operator: string, rhs: string): boolean {
  switch (operator) {
    case '==':
    case '===':
    case '>=':
    case '<=':
      return lhs === rhs;
    case '!=':
      return lhs !== rhs;
    case 'in':
      return rhs.includes(lhs);
    case 'not in':
      return !rhs.includes(lhs);
    default:
      return false;
  }
}

function isVariable(value: MarkerValue, name: string): boolean {
  return 'variable' in value && value.variable === name;
}

function valueOf(value: MarkerValue, environment: MarkerEnvironment): string | undefined {
  return 'literal' in value ? value.literal : environment[value.variable];
}
