import { BOUNDARIES, type Boundary } from './build-haystack.js';
import { evaluateCases, evaluateHaystack, type CaseResult, type LabelledCase } from './evaluate-cases.js';
import { pickAfterShutdown, pickOwnEngine } from './pick-haystack.js';

/** One folder of labelled logs, read by the caller. */
export interface LabelledFolder {
  name: string;
  cases: readonly LabelledCase[];
}

/** How the failures are scored: alone, inside the healthy logs, or by the general classifier alone. */
export interface Mode {
  id: string;
  title: string;
  haystack: boolean;
  /** Which healthy logs come before each failure: all, its own engine's, or a vLLM run that shut down. */
  pick?: 'own-engine' | 'after-shutdown';
  boundary: Boundary;
  signatures: boolean;
}

export const MODES: readonly Mode[] = [
  { id: 'alone', title: 'failure log alone', haystack: false, boundary: 'none', signatures: true },
  ...BOUNDARIES.map((boundary) => ({
    id: `haystack-${boundary}`,
    title: `after the healthy logs (boundary ${boundary})`,
    haystack: true,
    boundary,
    signatures: true,
  })),
  ...BOUNDARIES.map((boundary) => ({
    id: `own-engine-${boundary}`,
    title: `after its own engine's healthy logs (boundary ${boundary})`,
    haystack: true,
    pick: 'own-engine' as const,
    boundary,
    signatures: true,
  })),
  {
    id: 'after-shutdown',
    title: 'after a vLLM run that shut down in order',
    haystack: true,
    pick: 'after-shutdown',
    boundary: 'none',
    signatures: true,
  },
  {
    id: 'no-signatures',
    title: 'general classifier alone (--no-signatures)',
    haystack: false,
    boundary: 'none',
    signatures: false,
  },
];

export interface FolderFigures {
  folder: string;
  failures: number;
  rootCause: number;
  category: number;
  /** Failures answered "no failure found". */
  allClear: number;
  /** Failures whose root cause was named inside the healthy logs. */
  blamedHealthy: number;
  misses: CaseResult[];
}

export interface ModeFigures {
  mode: Mode;
  folders: FolderFigures[];
}

export interface HealthyFigures {
  /** Healthy logs, each alone, that were blamed for a failure. */
  blamedAlone: CaseResult[];
  total: number;
  /** All healthy logs in a row, by boundary: blamed or not. */
  inARow: { boundary: Boundary; result: CaseResult }[];
}

export interface Summary {
  modes: ModeFigures[];
  healthy: HealthyFigures;
}

/**
 * Every figure the issue tracks in one pass: each failure folder alone, inside all the healthy logs
 * without and with a boundary, by the general classifier alone; and the healthy logs, alone and in a row.
 * Pure: the logs are given, nothing is read.
 */
export function evaluateModes(
  failures: readonly LabelledFolder[],
  healthy: readonly LabelledCase[],
): Summary {
  const modes = MODES.filter((mode) => !mode.haystack || healthy.length > 0).map((mode) => ({
    mode,
    folders: failures.map((folder) => figuresOf(folder, mode, healthy)),
  }));
  const alone = evaluateCases(healthy);
  return {
    modes,
    healthy: {
      blamedAlone: alone.filter((r) => !r.rootCause),
      total: healthy.length,
      inARow:
        healthy.length === 0
          ? []
          : BOUNDARIES.map((boundary) => ({ boundary, result: evaluateHaystack(healthy, boundary) })),
    },
  };
}

function figuresOf(folder: LabelledFolder, mode: Mode, healthy: readonly LabelledCase[]): FolderFigures {
  const results = evaluateCases(
    folder.cases.filter((c) => c.label.root_cause),
    {
      boundary: mode.boundary,
      ...(mode.haystack ? { haystack: healthy } : {}),
      ...(mode.pick === 'own-engine' ? { pickHaystack: pickOwnEngine } : {}),
      ...(mode.pick === 'after-shutdown' ? { pickHaystack: pickAfterShutdown } : {}),
      ...(mode.signatures ? {} : { signatures: [] }),
    },
  );
  return {
    folder: folder.name,
    failures: results.length,
    rootCause: results.filter((r) => r.rootCause).length,
    category: results.filter((r) => r.category).length,
    allClear: results.filter((r) => r.allClear).length,
    blamedHealthy: results.filter((r) => r.reason.startsWith('blamed a healthy line')).length,
    misses: results.filter((r) => !r.rootCause || !r.category),
  };
}

const share = (n: number, of: number): string =>
  of === 0 ? '-' : `${n}/${of} (${((100 * n) / of).toFixed(1)}%)`;

/** The summary as a plain-text table, one row per mode and figure, one column per folder. */
export function formatSummary(summary: Summary): string {
  const folders = summary.modes[0]?.folders.map((f) => f.folder) ?? [];
  const rows: string[][] = [['', ...folders]];
  for (const { mode, folders: figures } of summary.modes) {
    rows.push([`root cause, ${mode.title}`, ...figures.map((f) => share(f.rootCause, f.failures))]);
    rows.push([`category, ${mode.title}`, ...figures.map((f) => share(f.category, f.failures))]);
    rows.push([`"no failure found", ${mode.title}`, ...figures.map((f) => `${f.allClear} of ${f.failures}`)]);
    if (mode.haystack) {
      rows.push([
        `healthy line blamed, ${mode.title}`,
        ...figures.map((f) => `${f.blamedHealthy} of ${f.failures}`),
      ]);
    }
  }
  const width = rows.map((row) => row.map((cell) => cell.length));
  const widths = folders.map((_, i) => Math.max(...width.map((w) => w[i + 1] ?? 0)));
  const first = Math.max(...width.map((w) => w[0] ?? 0));
  const lines = rows.map((row) =>
    [row[0]?.padEnd(first) ?? '', ...row.slice(1).map((cell, i) => cell.padStart(widths[i] ?? 0))]
      .join('  ')
      .trimEnd(),
  );
  const { healthy } = summary;
  if (healthy.total > 0) {
    const inARow = healthy.inARow
      .map(({ boundary, result }) => `${boundary} ${result.rootCause ? 'clean' : 'blamed'}`)
      .join(', ');
    lines.push(
      `healthy logs blamed for a failure: ${healthy.blamedAlone.length} of ${healthy.total} alone; all in a row: ${inARow}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
