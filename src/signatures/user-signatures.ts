import { parse as parseYaml } from 'yaml';
import { ConfigError } from '../errors.js';
import type { Signature } from './define-signature.js';
import { describeIssue, describeValue, userSignatureSchema, valueAt } from './schema.js';

/** A user signature and the file it came from. */
export interface UserSignature {
  signature: Signature;
  file: string;
}

/**
 * The yaml library's message on one line, its excerpt kept: "… at line 4, column 3: `other: 1`" rather
 * than a message cut at its colon.
 */
function describeParseError(message: string): string {
  const [first = '', ...rest] = message.split('\n');
  const excerpt = rest.filter((line) => line.trim() !== '' && !/^\s*\^+\s*$/.test(line));
  const caret = rest.findIndex((line) => /^\s*\^+\s*$/.test(line));
  // The line the caret points at is the one above it.
  const at = caret > 0 ? (rest[caret - 1] ?? '').trim() : (excerpt[excerpt.length - 1] ?? '').trim();
  const head = first.replace(/:\s*$/, '');
  return at === '' ? head : `${head}, at \`${at}\``;
}

/**
 * Parses one rule file: a signature object or a list of them, in YAML or JSON (by `file`'s ending).
 * Throws one ConfigError naming the file, the signature, the field, what was expected and what was found.
 */
export function parseUserSignatures(text: string, file: string): UserSignature[] {
  let document: unknown;
  try {
    document = /\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    const reason = error instanceof Error ? describeParseError(error.message) : String(error);
    throw new ConfigError(`${file}: not valid ${/\.json$/i.test(file) ? 'JSON' : 'YAML'}: ${reason}`, {
      cause: error,
    });
  }
  if (document === null || document === undefined) return [];
  const items = Array.isArray(document) ? (document as unknown[]) : [document];
  return items.map((item, index) => {
    const where = items.length > 1 || Array.isArray(document) ? `signature ${index + 1}${idOf(item)}, ` : '';
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw new ConfigError(`${file}: ${where}expected a signature object, found ${describeValue(item)}`);
    }
    const result = userSignatureSchema.safeParse(item);
    if (!result.success) {
      const [first, ...rest] = result.error.issues;
      const more =
        rest.length === 0 ? '' : ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})`;
      throw new ConfigError(
        `${file}: ${where}${first === undefined ? 'invalid' : describeIssue(first, item)}${more}`,
      );
    }
    return { signature: result.data, file };
  });
}

function idOf(item: unknown): string {
  const id = valueAt(item, ['id']);
  return typeof id === 'string' ? ` ("${id}")` : '';
}

/**
 * The built-ins with the user's signatures applied: one with a built-in id replaces it in place, the others
 * come first, so that on a tie the user's own rule wins. Two user files defining the same id is an error,
 * since which one wins would be an accident.
 */
export function mergeSignatures(builtins: readonly Signature[], user: readonly UserSignature[]): Signature[] {
  const byId = new Map<string, UserSignature>();
  for (const entry of user) {
    const previous = byId.get(entry.signature.id);
    if (previous !== undefined) {
      throw new ConfigError(
        `${entry.file}: signature id "${entry.signature.id}" is also defined in ${previous.file}; rename one of them`,
      );
    }
    byId.set(entry.signature.id, entry);
  }
  const builtinIds = new Set(builtins.map((signature) => signature.id));
  return [
    ...user.filter((entry) => !builtinIds.has(entry.signature.id)).map((entry) => entry.signature),
    ...builtins.map((signature) => byId.get(signature.id)?.signature ?? signature),
  ];
}
