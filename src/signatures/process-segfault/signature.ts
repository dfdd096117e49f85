import { defineSignature } from '../define-signature.js';
import { EXIT_STATUS_WORDS } from '../../runtimes/signals/exit-status.js';

// A death with no cause in the log: the finding is how it died and where that is recorded. Its weight is
// the least, so a cause the log does hold is never outweighed by the death it led to.
export default defineSignature({
  id: 'process-segfault',
  title: 'the server crashed with a segmentation fault (SIGSEGV, exit 139) in native code',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['segmentation fault', 'sigsegv', 'segv', '139', '-11'],
  match: {
    exception: null,
    // The shell's words, the signal's name, systemd's status=11/SEGV, 139 (128 + 11) and Python's -11.
    message: new RegExp(
      String.raw`[Ss]egmentation fault|\bSIGSEGV\b|\bstatus=11\/SEGV\b|${EXIT_STATUS_WORDS}(?:139|-11|-SIGSEGV)\b`,
    ),
  },
  explanation:
    "Exit status 139 is 128 + 11: the process was ended by SIGSEGV, an access to memory it does not own, in native code (a C, C++ or CUDA extension, the driver's libraries, the engine's own binary), not in Python. The usual causes: a compiled extension built against another torch, CUDA or Python than the one installed, a driver that does not fit the CUDA runtime, or a bug of this engine version that its issues already name. The kernel log's segfault line and the core dump's backtrace name the library it happened in.",
  fix: "Find the library it crashed in: `journalctl -k | grep -i segfault` (the line ends in the library's name) and `coredumpctl list`, then `coredumpctl info PID` for the backtrace; search the engine's issues for that library.",
  action: [
    {
      kind: 'inspect-exit',
      look: ['core-dump'],
    },
    {
      kind: 'step',
      text: "coredumpctl info PID shows the backtrace: search the engine's issues for the library it names, and reinstall that library built for the installed torch and CUDA.",
    },
  ],
  references: [
    'https://www.gnu.org/software/bash/manual/html_node/Exit-Status.html',
    'https://www.freedesktop.org/software/systemd/man/latest/coredumpctl.html',
  ],
  weight: 0.01,
});
