import { defineSignature } from '../define-signature.js';
import { EXIT_STATUS_WORDS } from '../../runtimes/signals/exit-status.js';

// A death with no cause in the log: the finding is how it died and where that is recorded. Its weight is
// the least, so a cause the log does hold is never outweighed by the death it led to.
export default defineSignature({
  id: 'process-aborted',
  title: 'the server aborted itself (SIGABRT, exit 134) and its log names no cause',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['aborted', 'sigabrt', 'abrt', '134', '-6'],
  match: {
    exception: null,
    // The shell's words (alone or as a script's job line), Go's `signal: aborted`, systemd's, 134 (128 + 6) and -6.
    message: new RegExp(
      String.raw`^Aborted(?: \(core dumped\))?\s*$|\bline \d+: +\d+ Aborted\b|\bsignal: aborted\b|\bSIGABRT\b|\bstatus=6\/ABRT\b|${EXIT_STATUS_WORDS}(?:134|-6|-SIGABRT)\b`,
    ),
  },
  explanation:
    "Exit status 134 is 128 + 6: the process called abort(), which native code does when one of its checks fails: an assertion, a C++ exception nothing caught (terminate called ...), glibc finding its heap corrupted, a CUDA or ggml check. The reason is printed on stderr just before the abort; this log does not hold it, so it went to another stream or file: the runner's own stderr, the container's log, another unit's journal.",
  fix: 'Read what the process printed on stderr just before it aborted (the full log of the unit, container or pod); `coredumpctl list` and `coredumpctl info PID` show the check that failed.',
  action: [
    {
      kind: 'inspect-exit',
      look: ['core-dump'],
    },
    {
      kind: 'step',
      text: 'Read what the process printed on stderr just before it aborted (the whole log of the unit, container or pod): the failed check is named there.',
    },
  ],
  references: [
    'https://www.gnu.org/software/bash/manual/html_node/Exit-Status.html',
    'https://www.freedesktop.org/software/systemd/man/latest/coredumpctl.html',
  ],
  weight: 0.01,
});
