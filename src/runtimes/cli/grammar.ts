import { defineGrammar } from '../define-grammar.js';

/** Command lines and the programs around the server: argument errors, `Error: ...` of Go and Rust CLIs, docker, a port that cannot be bound. */
export default defineGrammar({
  runtime: 'cli',
  lines: [
    // Go and Rust CLIs (`Error: listen tcp ...`, `Error: 500 Internal Server Error: ...`), click's options, and
    // a launch script's print of what it caught, a sentence of four words or more (`Error: Cannot provide a
    // placement group of ...`; not Rust's one-word enum, `Error: ShardCannotStart`, which its shard explains).
    {
      id: 'cli-error',
      rank: 260,
      pattern:
        /^Error: (?:[a-z0-9].+|No such option.*|Invalid value.*|Missing (?:argument|option).*|Got unexpected.*|[A-Z][a-z]+(?: [^\s:]+){3}.*)$/,
      fatal: true,
      strength: 32,
    },
    // The NVIDIA container toolkit's hook, which gives a container its GPUs, says why it could not (no
    // driver, no libnvidia-ml): the reason inside docker's `OCI runtime create failed`, on its line or the next.
    {
      id: 'nvidia-container-cli',
      rank: 265,
      pattern: /nvidia-container-cli: (.+)/,
      fatal: true,
      strength: 44,
      message: (m) => `nvidia-container-cli: ${m[1] ?? ''}`,
    },
    {
      id: 'docker-daemon',
      rank: 270,
      pattern: /docker: Error response from daemon: (.+)/,
      fatal: true,
      strength: 40,
    },
    // The program could not be run at all: a container's entrypoint (`exec /start.sh: no such file or
    // directory`, an image for another CPU's `exec format error`), a shell's `command not found`, systemd's
    // `Failed at step EXEC spawning ...` and `Failed to locate executable ...` (status 203/EXEC, 127).
    {
      id: 'exec-failed',
      rank: 255,
      pattern:
        /^exec (\S+): (?:no such file or directory|exec format error|permission denied)\s*$|\bexec format error\b|(?:^|: )(?:line \d+: )?[\w./+-]+: command not found\s*$|^(?:\/bin\/|\/usr\/bin\/)?\w*sh: \d+: [\w./+-]+: not found\s*$|\bFailed at step EXEC spawning \S+: .+|\bFailed to (?:locate|execute) executable \S+: .+/,
      fatal: true,
      strength: 40,
    },
    {
      id: 'bind-failed',
      rank: 360,
      pattern:
        /couldn't bind|bind: address already in use|bind: Only one usage of each socket address|address already in use/i,
      fatal: true,
      strength: 40,
    },
    {
      id: 'arg-error',
      rank: 440,
      pattern:
        /^error while handling argument|^error: (?:unrecognized|invalid|unknown|the argument|unexpected argument|a value is required|the following arguments are required|ambiguous option)|: error: (?:argument|unrecognized arguments|invalid choice|the following arguments are required|ambiguous option)/,
      fatal: true,
      strength: 40,
    },
  ],
});
