export type Level = 'DEBUG' | 'INFO' | 'WARNING' | 'ERROR' | 'CRITICAL';

/** One input line with its transport, process and logger prefixes recognised and removed. */
export interface ParsedLine {
  /** 1-based line number in the input. */
  n: number;
  /** The line as read, colour codes and CR removed. */
  raw: string;
  /** The message after all prefixes. */
  text: string;
  /** Process label such as `Worker_TP3`, `EngineCore_DP0`, `TP2`, `rank0`; null when unknown. */
  process: string | null;
  level: Level | null;
  /** The journald/syslog identifier (`systemd`, `vllm-kimi`), when the line came through the journal. */
  ident: string | null;
  /** Ray's de-duplication count (` [repeated 30x across cluster]`), 1 otherwise. */
  repeat: number;
  /** Ids of the prefix grammars recognised, outermost first. */
  formats: string[];
}
