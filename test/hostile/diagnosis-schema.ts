import { z } from 'zod';
import { CATEGORIES, ENGINES, type Diagnosis } from '../../src/types/diagnosis.js';

/**
 * The Diagnosis JSON (`vigil diagnose --format json`, schemaVersion 1) as src/types/diagnosis.ts declares it.
 * Objects are not strict: further fields may be added without breaking consumers.
 */
const lineNumber = z.number().int().positive();
const count = z.number().int().nonnegative();

const sourceSite = z.object({ file: z.string(), line: z.number().int().nonnegative(), function: z.string() });

const failureGroup = z.object({
  exception: z.string().nullable(),
  message: z.string(),
  processes: z.array(z.string()),
  count: z.number().int().positive(),
  firstLineNumber: lineNumber,
});

export const diagnosisSchema = z
  .object({
    schemaVersion: z.literal(1),
    verdict: z.enum(['failure', 'no-failure']),
    rootCause: z
      .object({
        exception: z.string().nullable(),
        message: z.string(),
        line: z.string(),
        lineNumber,
        processes: z.array(z.string()),
        raiseSite: sourceSite.nullable(),
        crashSite: sourceSite.nullable(),
      })
      .nullable(),
    signature: z
      .object({
        id: z.string().min(1),
        title: z.string().min(1),
        category: z.enum(CATEGORIES),
        explanation: z.string(),
        fix: z.string(),
        alternative: z.string().optional(),
        verify: z.string().optional(),
        references: z.array(z.string()).optional(),
      })
      .nullable(),
    general: z
      .object({
        category: z.enum(CATEGORIES),
        meaning: z.string().min(1),
        searchUrl: z.string().url(),
        basis: z.array(z.string()).min(1),
      })
      .nullable()
      .optional(),
    groups: z.array(failureGroup),
    service: z
      .object({
        unit: z.string().nullable(),
        starts: count,
        failedStarts: count,
        restartLoop: z.boolean(),
        lastExit: z.string().nullable(),
      })
      .nullable(),
    evidence: z.array(z.object({ lineNumber, text: z.string() })),
    symptoms: z.array(failureGroup),
    engine: z.enum(ENGINES).nullable(),
    engineVersion: z.string().nullable(),
    processes: z.array(z.string()),
    noiseSuppressed: count,
    input: z.object({
      lines: count,
      bytes: count,
      formats: z.array(z.string()),
      truncatedLines: count,
    }),
    warnings: z.array(z.string()),
    health: z.enum(['ready', 'stopped', 'unseen']).optional(),
    lastWords: z.array(z.string()).optional(),
  })
  .refine((d) => d.verdict === 'failure' || d.rootCause === null, {
    message: 'a no-failure verdict has no root cause',
  })
  .refine((d) => d.rootCause === null || d.rootCause.lineNumber <= d.input.lines, {
    message: 'the root cause line is within the input',
  })
  .refine((d) => d.evidence.every((e) => e.lineNumber <= d.input.lines), {
    message: 'evidence lines are within the input',
  });

export type DiagnosisJson = z.infer<typeof diagnosisSchema>;

// Compile-time drift check: every Diagnosis is valid under the schema's types. A field that changes type or
// disappears from src/types/diagnosis.ts fails `tsc` here; a new field is caught by the key test in
// diagnose-properties.test.ts.
const _everyDiagnosisFitsTheSchema = (d: Diagnosis): DiagnosisJson => d;
void _everyDiagnosisFitsTheSchema;

/** Keys a diagnosis has only where they apply: `lastWords` for a death that names no cause. */
const WHERE_THEY_APPLY = new Set(['lastWords']);

/** The top-level keys the schema describes that every diagnosis has. */
export const DIAGNOSIS_KEYS: readonly string[] = Object.keys(diagnosisSchema.shape).filter(
  (key) => !WHERE_THEY_APPLY.has(key),
);
