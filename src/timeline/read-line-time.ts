/**
 * The clock time a log line was written, read from its prefix: journald's short format, ISO 8601 (docker
 * `-t`, kubectl `--timestamps`, most loggers), and the `MM-DD HH:MM:SS` header vLLM and SGLang print.
 * Logs seldom carry the year, so times are comparable within one log, not absolute. Pure.
 */
export interface LineTime {
  /** Milliseconds on a scale that orders the lines of one log (month, day and time of day). */
  ms: number;
  /** The time of day as written, `23:31:07`. */
  clock: string;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

interface TimeGrammar {
  pattern: RegExp;
  /** Month 1-12 and day from the match; null when the format has no date. */
  date: (m: RegExpExecArray) => { month: number; day: number } | null;
}

// Each row captures the time of day as groups 'h', 'm', 's' and optional 'frac'.
const TIME = String.raw`(?<h>\d\d):(?<m>\d\d):(?<s>\d\d)(?:[.,](?<frac>\d+))?`;

const GRAMMARS: readonly TimeGrammar[] = [
  {
    // Feb 20 23:31:07 host ident[pid]: (journalctl's short format, syslog)
    pattern: new RegExp(String.raw`^(?<mon>${MONTHS.join('|')}) +(?<day>\d\d?) ${TIME}`),
    date: (m) => ({ month: MONTHS.indexOf(m.groups?.mon ?? '') + 1, day: Number(m.groups?.day) }),
  },
  {
    // 2026-02-20T23:31:07.123456Z (docker -t, kubectl --timestamps, Python logging, tracing)
    pattern: new RegExp(String.raw`^(?:\[?[\w./-]+\]? )?\[?\d{4}-(?<mon>\d\d)-(?<day>\d\d)[T ]${TIME}`),
    date: (m) => ({ month: Number(m.groups?.mon), day: Number(m.groups?.day) }),
  },
  {
    // W0604 21:27:22.481000 416 torch/distributed/run.py:851] (glog's header, as torch's C++ and its elastic
    // agent write it)
    pattern: new RegExp(String.raw`^(?:\[rank\d+\]:)?[IWEF](?<mon>\d\d)(?<day>\d\d) ${TIME}`),
    date: (m) => ({ month: Number(m.groups?.mon), day: Number(m.groups?.day) }),
  },
  {
    // (Worker_TP0 pid=1) INFO 02-20 23:31:19 [file.py:12] (vLLM's logger header, after a process tag)
    pattern: new RegExp(
      String.raw`^(?:\([^)]*\) )?(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) (?<mon>\d\d)-(?<day>\d\d) ${TIME}`,
    ),
    date: (m) => ({ month: Number(m.groups?.mon), day: Number(m.groups?.day) }),
  },
];

const DAY_MS = 86_400_000;

export function readLineTime(line: string): LineTime | null {
  for (const grammar of GRAMMARS) {
    const m = grammar.pattern.exec(line);
    const g = m?.groups;
    if (!m || !g) continue;
    const date = grammar.date(m);
    if (date === null || date.month < 1 || date.month > 12 || date.day < 1 || date.day > 31) continue;
    const seconds = Number(g.h) * 3600 + Number(g.m) * 60 + Number(g.s);
    const frac = g.frac ? Number(`0.${g.frac}`) : 0;
    const ms = ((date.month - 1) * 31 + (date.day - 1)) * DAY_MS + (seconds + frac) * 1000;
    return { ms, clock: `${g.h}:${g.m}:${g.s}` };
  }
  return null;
}
