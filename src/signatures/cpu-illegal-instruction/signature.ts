import { defineSignature } from '../define-signature.js';
import { EXIT_STATUS_WORDS } from '../../runtimes/signals/exit-status.js';

// A death with no cause in the log: the finding is how it died and where that is recorded. Its weight is
// the least, so a cause the log does hold is never outweighed by the death it led to.
export default defineSignature({
  id: 'cpu-illegal-instruction',
  title: "the CPU lacks an instruction the server's binary uses (SIGILL, exit 132)",
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['illegal instruction', 'sigill', 'status=4/ill', '132', '-4', '0xc000001d', '3221225501'],
  match: {
    exception: null,
    // The shell's words, Go's (`signal: illegal instruction`), systemd's status=4/ILL, 132 (128 + 4), -4, and
    // Windows' STATUS_ILLEGAL_INSTRUCTION.
    message: new RegExp(
      String.raw`Illegal instruction|\bsignal: illegal instruction\b|\bSIGILL\b|\bstatus=4\/ILL\b|${EXIT_STATUS_WORDS}(?:132|-4|-SIGILL|0x[cC]000001[dD]|3221225501)\b`,
    ),
  },
  explanation:
    'Exit status 132 is 128 + 4 (on Windows 0xC000001D, STATUS_ILLEGAL_INSTRUCTION): the CPU met an instruction it does not have. The binary or one of its compiled libraries was built for newer CPU features than this CPU, or the CPU model a virtual machine shows, offers: most often AVX, AVX2 or AVX-512, which prebuilt wheels and binaries assume on x86, or F16C and FMA.',
  fix: "Compare the CPU's instruction sets with what the build needs: `grep -o -w -e avx -e avx2 -e avx512f -e fma -e f16c /proc/cpuinfo | sort -u`; then use a build for this CPU, or build from source on it, or pass the host's CPU model through to the VM.",
  action: [
    {
      kind: 'inspect-exit',
      look: ['cpu-flags'],
    },
    {
      kind: 'step',
      text: "Use a build that does not need the missing instruction set, or build from source on this machine; on a virtual machine, pass the host's CPU model through (host-passthrough).",
    },
  ],
  references: [
    'https://www.gnu.org/software/bash/manual/html_node/Exit-Status.html',
    'https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-erref/596a1078-e883-4972-9bbc-49e60bebca55',
  ],
  weight: 0.01,
});
