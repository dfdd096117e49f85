/** Vigil's commands, by name: commands/index.ts loads each, code-cache.ts keeps a cache file for each. */
export const COMMAND_NAMES = [
  'diagnose',
  'eval',
  'signatures',
  'check',
  'snapshot',
  'diff',
  'run',
  'unit',
  'watch',
  'probe-config',
  'incidents',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];
