import { readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, SourceError } from '../errors.js';
import { LIMITS } from '../limits.js';
import { readRegularFile } from '../system/read-regular-file.js';
import { builtinSignatures } from '../signatures/index.js';
import type { Signature } from '../signatures/index.js';
import type { UserSignature } from '../signatures/user-signatures.js';

/** The formats a rules folder may hold, by file name ending. The parser (YAML, zod) loads only for them. */
const RULE_FILE = /\.(?:ya?ml|json)$/i;

export interface LoadSignaturesOptions {
  /** Folders (or single files) from `--rules`; each must exist. */
  rulesDirs?: readonly string[];
  /** For XDG_CONFIG_HOME and HOME. */
  env: Record<string, string | undefined>;
  /** Skip the default folder under the user's config directory (tests). */
  skipDefault?: boolean;
  /**
   * A broken rule file throws (for `vigil signatures`, where rules are written). Otherwise it is skipped
   * with a warning and the other rules load: one bad file must not stop every diagnosis.
   */
  strict?: boolean;
}

export interface LoadedSignatures {
  signatures: Signature[];
  /** Where each user signature came from, by id; built-ins are absent. */
  userFiles: Map<string, string>;
  /** One per rule file skipped because it is broken: the file and the whole problem. */
  warnings: string[];
}

/** `${XDG_CONFIG_HOME:-~/.config}/vigil/signatures`. */
export function defaultRulesDir(env: Record<string, string | undefined>): string {
  const configHome =
    env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : null;
  return join(configHome ?? join(env.HOME ?? homedir(), '.config'), 'vigil', 'signatures');
}

/**
 * The rule files of a folder, sorted, or the path itself when it is a file. Null when it does not exist.
 * Asked synchronously: every diagnosis asks it of the default folder first, and a round trip through
 * Node's thread pool costs more than the stat.
 */
function ruleFiles(path: string): string[] | null {
  let info;
  try {
    info = statSync(path);
  } catch {
    return null;
  }
  if (!info.isDirectory()) return [path];
  const names = readdirSync(path);
  return names
    .filter((name) => RULE_FILE.test(name))
    .sort()
    .map((name) => join(path, name));
}

async function readRules(
  path: string,
  required: boolean,
  warnings: string[] | null,
): Promise<UserSignature[]> {
  const files = ruleFiles(path);
  if (files === null) {
    if (required) throw new SourceError(`--rules ${path}: no such file or folder`);
    return [];
  }
  const found: UserSignature[] = [];
  if (files.length === 0) return found;
  const { parseUserSignatures } = await import('../signatures/user-signatures.js');
  for (const file of files) {
    // A FIFO would hang every diagnose, a 100 MB YAML file take gigabytes: regular files within the cap only.
    const reading = readRegularFile(file, LIMITS.ruleFileBytes);
    if (reading.kind !== 'text') {
      throw new SourceError(
        `cannot read rule file ${file}: ${reading.kind === 'missing' ? 'ENOENT' : reading.reason}`,
      );
    }
    const text = reading.text;
    try {
      found.push(...parseUserSignatures(text, file));
    } catch (error) {
      if (warnings === null || !(error instanceof ConfigError)) throw error;
      warnings.push(`skipped the rule file ${error.message}`);
    }
  }
  return found;
}

/** The built-in signatures merged with the default folder's and each `--rules` folder's. */
export async function loadSignatures(options: LoadSignaturesOptions): Promise<LoadedSignatures> {
  const user: UserSignature[] = [];
  const warnings: string[] = [];
  const skipped = options.strict === true ? null : warnings;
  if (options.skipDefault !== true) {
    user.push(...(await readRules(defaultRulesDir(options.env), false, skipped)));
  }
  for (const dir of options.rulesDirs ?? []) user.push(...(await readRules(dir, true, skipped)));
  if (user.length === 0) return { signatures: [...builtinSignatures], userFiles: new Map(), warnings };
  const unique = keepFirstOfEachId(user, skipped);
  const { mergeSignatures } = await import('../signatures/user-signatures.js');
  return {
    signatures: mergeSignatures(builtinSignatures, unique),
    userFiles: new Map(unique.map((entry) => [entry.signature.id, entry.file])),
    warnings,
  };
}

/**
 * One rule per id, the first read (the default folder, then each --rules in order, files sorted): a second
 * file with the same id is a warning naming both, not a stop, since a stray copy of a rule file must not keep
 * every diagnosis and every supervised start from running. Without `warnings` (strict) it is an error.
 */
function keepFirstOfEachId(user: readonly UserSignature[], warnings: string[] | null): UserSignature[] {
  const first = new Map<string, UserSignature>();
  for (const entry of user) {
    const previous = first.get(entry.signature.id);
    if (previous === undefined) {
      first.set(entry.signature.id, entry);
      continue;
    }
    const problem = `signature id "${entry.signature.id}" in ${entry.file} is also defined in ${previous.file}`;
    if (warnings === null) throw new ConfigError(`${problem}; rename one of them`);
    warnings.push(`${problem}: the one in ${previous.file} is used; rename one of them`);
  }
  return [...first.values()];
}
