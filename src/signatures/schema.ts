import { z } from 'zod';
import { CATEGORIES, ENGINES } from '../types/diagnosis.js';
import type { Signature } from './define-signature.js';
import { ENGINE_OPTIONS, EXIT_RECORDS, INSTALL_OPTIONS, type FixAction } from '../fix/fix-action.js';
import { compileLinearPattern } from './linear-pattern.js';
import { findBacktrackingRisks } from './pattern-safety.js';

/**
 * One schema for signatures, in two dialects: built-in ones (TypeScript, RegExp literals) and user ones
 * (YAML or JSON, patterns as strings). Custom messages are written as what was expected, so an error
 * can say "expected <message>, found <value>".
 */

export const SIGNATURE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const EXCEPTION_NAME = /^[A-Za-z_][\w]*$/;
const PATTERN_FIELDS = ['message', 'process', 'frames', 'context', 'captures'] as const;
const ALLOWED_FLAGS = /^[imsu]*$/;

/** Why a RegExp may not be used, or null. Shared by both dialects. */
export function patternProblem(pattern: RegExp): string | null {
  if (!ALLOWED_FLAGS.test(pattern.flags)) {
    return `a pattern with flags from "imsu" only (g and y make test() stateful), not "${pattern.flags}"`;
  }
  const risks = findBacktrackingRisks(pattern.source, pattern.flags);
  return risks.length === 0 ? null : `a pattern without catastrophic backtracking: ${risks.join('; ')}`;
}

const safeRegExp = z.instanceof(RegExp, { error: 'a regular expression' }).superRefine((pattern, ctx) => {
  const problem = patternProblem(pattern);
  if (problem !== null) ctx.addIssue({ code: 'custom', message: problem, input: pattern });
});

/** `/source/flags` or a bare source, as written in a YAML or JSON rule file. */
export function compileUserPattern(text: string): RegExp | string {
  const slashed = /^\/(.*)\/([a-z]*)$/s.exec(text);
  const [source, flags] = slashed === null ? [text, ''] : [slashed[1] ?? '', slashed[2] ?? ''];
  if (source === '') return 'a non-empty regular expression';
  try {
    new RegExp(source, flags);
  } catch (error) {
    return `a valid regular expression (${error instanceof Error ? error.message : String(error)})`;
  }
  if (!ALLOWED_FLAGS.test(flags)) return `a pattern with flags from "imsu" only, not "${flags}"`;
  const linear = compileLinearPattern(source, flags);
  if (typeof linear !== 'string' || !LOOKAROUND.test(source) || linear.includes('backreferences'))
    return linear;
  // RE2 has no lookahead, which built-in signatures use (`vigil signatures show --json` must load back):
  // such a pattern runs in V8 only when the backtracking check finds no risk, on input capped as always.
  const pattern = new RegExp(source, flags);
  return patternProblem(pattern) ?? pattern;
}

const LOOKAROUND = /\(\?<?[=!]/;

const userRegExp = z.string({ error: 'a regular expression written as a string' }).transform((text, ctx) => {
  const compiled = compileUserPattern(text);
  if (typeof compiled === 'string') {
    ctx.addIssue({ code: 'custom', message: compiled, input: text });
    return z.NEVER;
  }
  return compiled;
});

const builtinException = z.union([z.string().regex(EXCEPTION_NAME), safeRegExp, z.null()], {
  error: 'an exception name such as "RuntimeError", a RegExp, or null',
});

const userException = z
  .string({ error: 'an exception name such as "RuntimeError", a /pattern/, or null' })
  .transform((text, ctx) => {
    if (text.startsWith('/')) {
      const compiled = compileUserPattern(text);
      if (typeof compiled !== 'string') return compiled;
      ctx.addIssue({ code: 'custom', message: compiled, input: text });
      return z.NEVER;
    }
    if (EXCEPTION_NAME.test(text)) return text;
    ctx.addIssue({
      code: 'custom',
      message: 'the last part of an exception name such as "RuntimeError", or a /pattern/',
      input: text,
    });
    return z.NEVER;
  })
  .nullable();

// Validated, never rewritten: a keyword's trailing space can matter ('value error, ').
const text = (what: string) =>
  z.string({ error: what }).refine((value) => value.trim() !== '', { error: what });

/** A fix as data (fix/fix-action.ts); values are strings, `{name}` captures allowed. */
const fixActionSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('install'),
    // Empty only with engine: true (the engine's own package).
    requirements: z.array(text('a requirement, e.g. "vllm>=0.11"')),
    options: z.array(z.enum(INSTALL_OPTIONS)).optional(),
    index: z.url({ error: 'an index URL' }).optional(),
    engine: z.literal(true).optional(),
  }),
  z.strictObject({
    kind: z.literal('engine-option'),
    option: z.enum(ENGINE_OPTIONS),
    value: text('a number or {capture}').optional(),
    divides: text('a number or {capture}').optional(),
    share: z
      .strictObject({ part: text('a number or {capture}'), whole: text('a number or {capture}') })
      .optional(),
  }),
  z.strictObject({
    kind: z.literal('inspect-packages'),
    list: text('a name to filter pip list by').optional(),
  }),
  z.strictObject({
    kind: z.literal('inspect-exit'),
    look: z.array(z.enum(EXIT_RECORDS)).optional(),
  }),
  z.strictObject({ kind: z.literal('stop-process'), pid: text('a PID or {capture}') }),
  z.strictObject({
    kind: z.literal('environment-variable'),
    name: z.string().regex(/^[A-Z_][A-Z0-9_]*$/, { error: 'a variable name such as NCCL_P2P_DISABLE' }),
    value: text('a value or {capture}'),
    engines: z.array(z.enum(ENGINES)).min(1).optional(),
  }),
  z.strictObject({
    kind: z.literal('command'),
    argv: z.array(text('an argument or {capture}')).min(1),
    where: z.enum(['server', 'host']),
  }),
  z.strictObject({
    kind: z.literal('system-package'),
    packages: z.array(text('a Debian package such as python3-dev, or {capture}')).min(1),
  }),
  z.strictObject({
    kind: z.literal('shared-memory'),
    size: z.string().regex(/^\d+[kmgKMG]?$/, { error: 'a size such as 16g' }),
  }),
  z.strictObject({ kind: z.literal('step'), text: text('a step in words') }),
  z.strictObject({
    kind: z.literal('free-port'),
    port: text('a port or {capture}'),
    pid: text('a PID or {capture}').optional(),
  }),
]);

const common = {
  id: z.string({ error: 'a kebab-case id such as "cuda-oom-at-load"' }).regex(SIGNATURE_ID, {
    error: 'a kebab-case id such as "cuda-oom-at-load" (a-z, 0-9 and single dashes)',
  }),
  title: text('a short title'),
  category: z.enum(CATEGORIES),
  engines: z.array(z.enum(ENGINES)).min(1),
  keywords: z
    .array(
      text('a keyword').refine((keyword) => keyword === keyword.toLowerCase(), {
        error: 'a lower-case keyword (the text it is looked for in is lower-cased)',
      }),
    )
    .min(1),
  explanation: text('an explanation of what happened and why'),
  fix: text('a fix: a command or step ({name} takes a captured value)'),
  action: z.array(fixActionSchema).min(1).optional(),
  alternative: text('an alternative fix').optional(),
  references: z.array(z.url({ error: 'a URL' })),
  weight: z.number().gt(0).max(1).optional(),
  blame: z.enum(['candidate', 'context']).optional(),
  raises: z
    .string()
    .regex(/^[A-Za-z_][\w.]*$/, { error: 'an exception class such as "ValueError"' })
    .optional(),
};

/** Every string a fix action holds, where `{name}` may stand. */
function actionStrings(actions: readonly FixAction[] | undefined): string[] {
  return (actions ?? []).flatMap((action) =>
    Object.values(action).flatMap((value: unknown) =>
      typeof value === 'string'
        ? [value]
        : Array.isArray(value)
          ? value.filter((v) => typeof v === 'string')
          : [],
    ),
  );
}

/** Named groups of a pattern, e.g. `want` in `(?<want>\d+)`. */
function groupNames(pattern: RegExp | undefined): string[] {
  return pattern === undefined
    ? []
    : [...pattern.source.matchAll(/\(\?<([A-Za-z_$][\w$]*)>/g)].map((m) => m[1] ?? '');
}

/** Every `{name}` in the texts must be a group that `match.message`, `context` or `captures` captures. */
function checkPlaceholders(
  signature: {
    match: { message?: RegExp; context?: RegExp; captures?: RegExp };
    explanation: string;
    fix: string;
    action?: FixAction[] | undefined;
    alternative?: string;
  },
  ctx: z.RefinementCtx,
): void {
  const known = new Set(
    [signature.match.message, signature.match.context, signature.match.captures].flatMap(groupNames),
  );
  const texts = {
    explanation: signature.explanation,
    fix: signature.fix,
    alternative: signature.alternative ?? '',
    action: actionStrings(signature.action).join(' '),
  };
  for (const field of ['explanation', 'fix', 'alternative', 'action'] as const) {
    for (const [, name = ''] of texts[field].matchAll(/\{([A-Za-z_$][\w$]*)\}/g)) {
      if (known.has(name)) continue;
      const groups = known.size === 0 ? 'none' : [...known].map((group) => `{${group}}`).join(', ');
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `placeholders that name a group of match.message, match.context or match.captures (${groups}); {${name}} does not`,
        input: texts[field],
      });
    }
  }
}

function matcherShape<P extends z.ZodType<RegExp>, E extends z.ZodType>(pattern: P, exception: E) {
  const shape = { exception: exception.optional() } as Record<string, z.ZodType>;
  for (const field of PATTERN_FIELDS) shape[field] = pattern.optional();
  return z.strictObject(
    shape as { exception: z.ZodOptional<E> } & Record<(typeof PATTERN_FIELDS)[number], z.ZodOptional<P>>,
  );
}

/** Built-in signatures, as defineSignature() objects. */
export const signatureSchema = z
  .strictObject({ ...common, match: matcherShape(safeRegExp, builtinException) })
  .superRefine(checkPlaceholders);

/** User signatures read from YAML or JSON. The output is a Signature, patterns compiled. */
export const userSignatureSchema = z
  .strictObject({ ...common, match: matcherShape(userRegExp, userException) })
  .superRefine(checkPlaceholders);

/** Validates an object as a built-in signature; returns the problems as "field: expected ..." lines. */
export function validateSignature(signature: Signature): string[] {
  const result = signatureSchema.safeParse(signature);
  return result.success ? [] : result.error.issues.map((issue) => describeIssue(issue, signature));
}

/** The value found at a path of a parsed document, for error messages. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (value instanceof RegExp) return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : `a list of ${value.length}`;
  let shown: string;
  switch (typeof value) {
    case 'string':
      shown = JSON.stringify(value);
      break;
    case 'number':
    case 'boolean':
    case 'bigint':
      shown = String(value);
      break;
    default:
      return `a ${typeof value}`;
  }
  return shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
}

/** "match.message: expected ..., found ..." for one issue, the value looked up in `input`. */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const field = issue.path.length === 0 ? '(top level)' : issue.path.map(String).join('.');
  const found = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type': {
      // Fields with their own wording ("a short title") say it; the others get the type's name.
      if (!issue.message.startsWith('Invalid input')) {
        return `${field}: expected ${issue.message}, found ${describeValue(found)}`;
      }
      const expected =
        issue.expected === 'array'
          ? 'a list'
          : `${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
      return `${field}: expected ${expected}, found ${describeValue(found)}`;
    }
    case 'invalid_value':
      return `${field}: expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}, found ${describeValue(found)}`;
    case 'too_small':
      return issue.origin === 'array'
        ? `${field}: expected at least ${String(issue.minimum)} item(s), found ${describeValue(found)}`
        : `${field}: expected a value of at least ${String(issue.minimum)}, found ${describeValue(found)}`;
    case 'too_big':
      return `${field}: expected a value of at most ${String(issue.maximum)}, found ${describeValue(found)}`;
    case 'unrecognized_keys':
      return `${field}: expected only known fields, found ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    default:
      return `${field}: expected ${issue.message}, found ${describeValue(found)}`;
  }
}
