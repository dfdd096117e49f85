import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { Snapshot } from './snapshot.js';

// zod loads only when a snapshot is read (check --against, diff), not on every check.
const SnapshotDistributionSchema = z.object({
  name: z.string().min(1),
  version: z.string().min(1),
  installer: z.string().nullable(),
  source: z.string(),
});

const SnapshotSchema = z.object({
  schemaVersion: z.literal(1),
  environment: z.object({
    python: z.string().nullable(),
    sitePackages: z.array(z.string()),
    distributions: z.array(SnapshotDistributionSchema).max(LIMITS.snapshotDistributions),
  }),
});

/** Parses a snapshot file's text; any problem is one ConfigError line naming the file. */
export function parseSnapshot(text: string, file: string): Snapshot {
  let data: unknown;
  try {
    // Editors on Windows save UTF-8 with a byte-order mark, which JSON.parse refuses.
    data = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    throw new ConfigError(
      `${file} is not valid JSON (${(error as Error).message}); give a file written by vigil snapshot`,
      {
        cause: error,
      },
    );
  }
  const parsed = SnapshotSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'top level';
    throw new ConfigError(
      `${file} is not a vigil snapshot (schemaVersion 1): ${where}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}
