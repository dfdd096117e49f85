/** A user signature file (YAML) that matches `RuntimeError: boom WHAT`: what `--rules` tests load. */
export const USER_RULE_YAML = [
  'id: my-own-rule',
  'title: my own rule',
  'category: other',
  'engines: [vllm]',
  'keywords: [boom]',
  'match:',
  "  message: 'boom (?<what>\\w+)'",
  'explanation: it went boom ({what})',
  'fix: stop {what}',
  'references: []',
].join('\n');
