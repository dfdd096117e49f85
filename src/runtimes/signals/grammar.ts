import { defineGrammar } from '../define-grammar.js';
import { ERROR_EXIT_STATUS, EXIT_STATUS_WORDS } from './exit-status.js';

/**
 * Signals and deaths: segmentation faults, bus errors, illegal instructions, `Killed`, the kernel's OOM killer, a
 * shard signalled, and the exit statuses that supervisors, shells and parent processes report for a child.
 */
export default defineGrammar({
  runtime: 'signals',
  lines: [
    {
      id: 'segfault',
      rank: 280,
      // zsh words it in lower case (`[1]    3804384 segmentation fault (core dumped)`).
      pattern: /[Ss]egmentation fault|SIGSEGV|Fatal Python error: Segmentation/,
      fatal: true,
      strength: 35,
      crash: true,
    },
    { id: 'bus-error', rank: 300, pattern: /\bBus error\b|SIGBUS/, fatal: true, strength: 35, crash: true },
    // SIGFPE: an integer division by zero in native code (the shell's `Floating point exception (core dumped)`).
    {
      id: 'floating-point-exception',
      rank: 305,
      pattern: /\bFloating point exception\b|\bSIGFPE\b/,
      fatal: true,
      strength: 35,
      crash: true,
    },
    {
      id: 'illegal-instruction',
      rank: 310,
      pattern: /Illegal instruction|SIGILL/,
      fatal: true,
      strength: 35,
      crash: true,
    },
    // SGLang's scheduler watchdog ends a process whose forward pass hung (`Watchdog timeout
    // (self.watchdog_timeout=300)`); every rank says it, then the parent's `Received sigquit from a child`.
    {
      id: 'scheduler-watchdog-timeout',
      rank: 322,
      pattern: /^Watchdog timeout \(self\.watchdog_timeout=\d+\)/,
      fatal: true,
      strength: 30,
      crash: true,
    },
    // TGI's launcher on a shard that exited on its own (after `SystemExit: 1` in the shard's interceptor).
    {
      id: 'shard-crashed',
      rank: 321,
      pattern: /\bShard \d+ crashed\b/,
      fatal: true,
      strength: 24,
      crash: true,
    },
    {
      id: 'shard-signal',
      rank: 320,
      pattern: /Shard process was signaled to shutdown with signal (\d+)/,
      fatal: true,
      strength: 33,
    },
    {
      id: 'oom-killer',
      rank: 330,
      // Slurm's word at a job's end where the kernel killed its tasks (`error: Detected 2 oom_kill events in
      // StepId=1454668.batch. Some of the step tasks have been OOM Killed.`).
      pattern:
        /Out of memory: Kill(?:ed)? process|invoked oom-killer|oom-kill:|OOMKilled|\bDetected \d+ oom_kill events?\b/,
      fatal: true,
      strength: 44,
      crash: true,
    },
    // torch's elastic agent (torchrun) sums up a worker that a signal ended: `traceback : Signal 9 (SIGKILL)
    // received by PID 1234` under `Root Cause (first observed failure):`.
    {
      id: 'torchrun-signal',
      rank: 335,
      pattern: /^\s*traceback\s*: (Signal \d+ \(SIG\w+\) received by PID \d+)/,
      fatal: true,
      strength: 30,
      crash: true,
      message: (m) => m[1] ?? '',
    },
    // Triton Inference Server's own handler (`Signal (11) received.`, then its stack as `N# 0x... in lib`);
    // it says the same of the SIGTERM (15) and SIGINT (2) a stop sends.
    {
      id: 'triton-signal',
      rank: 337,
      pattern: /^Signal \((?!15\)|2\))\d+\) received\.?\s*$/,
      fatal: true,
      strength: 30,
      crash: true,
    },
    // The shell's report of a SIGKILL, alone or as a script's job line (`run.sh: line 3: 4242 Killed  python ...`).
    {
      id: 'killed',
      rank: 340,
      pattern: /^Killed\s*$|\bsignal: killed\b|\bline \d+: +\d+ Killed\b/,
      fatal: true,
      strength: 25,
    },
    // A Go runtime's own word for a segfault, and a process a supervisor saw die with no word of its own.
    {
      id: 'go-signal',
      rank: 285,
      pattern: /^SIG(?:SEGV|BUS|ILL|ABRT|FPE): .+/,
      fatal: true,
      strength: 34,
      crash: true,
    },
    {
      id: 'died-unexpectedly',
      rank: 345,
      pattern: /\b(?:proc|process) \S+ died unexpectedly\b/,
      fatal: true,
      strength: 24,
      crash: true,
    },
    // systemd-coredump's report of a service's process that a signal ended with a core dump (the frames of
    // each thread follow; the signal and its reason, if any, were printed before by the process itself).
    {
      id: 'core-dumped-by-systemd',
      rank: 343,
      pattern: /\bProcess \d+ \(.+\) of user \d+ dumped core\b/,
      fatal: true,
      strength: 24,
      crash: true,
    },
    // A Windows program's unhandled-exception filter, reporting the NTSTATUS it is about to die of
    // (`Exception Code: 0xC0000005`, an access violation; printed by a crash handler, relayed by a launcher).
    {
      id: 'windows-exception-code',
      rank: 306,
      pattern: /^(?:Unhandled )?[Ee]xception [Cc]ode: 0x[cC][0-9a-fA-F]{7}\b/,
      fatal: true,
      strength: 35,
      crash: true,
    },
    // Cosmopolitan's crash report (llamafile): `error: Uncaught SIGABRT (SI_0) on unknown pid 26726 tid 262152`.
    {
      id: 'cosmopolitan-uncaught-signal',
      rank: 341,
      pattern: /^error: Uncaught SIG[A-Z]+\b.*/,
      fatal: true,
      strength: 24,
      crash: true,
    },
    // A script's job line for a child that aborted (`run.sh: line 12: 55704 Aborted  (core dumped) ./llama-server`).
    {
      id: 'aborted-job',
      rank: 342,
      pattern: /\bline \d+: +\d+ Aborted\b/,
      fatal: true,
      strength: 24,
      crash: true,
    },
    // Go's `os/exec` naming the signal that ended a child (`cmd.Wait() returned error: signal: aborted (core
    // dumped)`), as a proxy or launcher (llama-swap, Ollama) logs its child's death.
    {
      id: 'child-ended-by-signal',
      // After the engines' own rows for their child's end (Ollama's `error loading llama server`).
      rank: 1005,
      pattern:
        /\bsignal: (?:aborted|illegal instruction|bus error|floating point exception|segmentation fault|trace\/breakpoint trap)\b/,
      fatal: true,
      strength: 24,
      crash: true,
    },
    // A status that a signal or a Windows exception ended the process with, as its parent or supervisor
    // reports it: 128 + N (docker, a shell), -N (Python's multiprocessing, torch's elastic agent, SGLang),
    // systemd's status=N/NAME, an NTSTATUS (Go's `exit status 0xc0000005`; as a signed 32-bit number, a
    // launcher's `exit code: -1073740791`, 0xC0000409). SIGTERM and SIGINT are a stop someone asked for; an
    // exception line that quotes a status (CalledProcessError) is Python's own.
    {
      id: 'exit-by-signal',
      rank: 1010,
      pattern: new RegExp(
        String.raw`(?<!non-zero )\b${EXIT_STATUS_WORDS}(?:(?!143\b|130\b)(?:129|1[3-5]\d)\b|-(?!15\b|2\b)(?:[1-9]|[1-2]\d|3[01])\b|-SIG(?!TERM\b|INT\b)[A-Z]+\b|0x[cC][0-9a-fA-F]{7}\b|3221\d{6}\b|-10736[7-9]\d{4}\b|-10737[0-4]\d{4}\b)|\bstatus=(?!15\/|2\/)\d+\/(?:KILL|SEGV|ABRT|BUS|ILL|FPE|TRAP|SYS|XCPU|XFSZ)\b`,
      ),
      fatal: true,
      strength: 24,
      crash: true,
    },
    // Any other status but success, and not a signal's 129-159 (above, or the 143 and 130 of a stop): the
    // process ended itself with an error, which it may have printed elsewhere.
    {
      id: 'exit-with-error',
      rank: 1020,
      pattern: new RegExp(ERROR_EXIT_STATUS),
      fatal: true,
      strength: 12,
    },
  ],
});
