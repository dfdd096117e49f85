import { defineSignature } from '../define-signature.js';

// A death with no cause in the log: the finding is how it died and where that is recorded. Its weight is
// the least, so a cause the log does hold is never outweighed by the death it led to.
export default defineSignature({
  id: 'windows-stack-buffer-overrun',
  title: 'a native crash on Windows: fail-fast abort (0xC0000409, stack buffer overrun)',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['0xc0000409', '3221226505', '-1073740791'],
  match: {
    exception: null,
    // STATUS_STACK_BUFFER_OVERRUN: Go and Ollama print it in hex, Python's subprocess as 3221226505 or -1073740791.
    message: /\b0x[cC]0000409\b|\b3221226505\b|-1073740791\b/,
  },
  explanation:
    "Exit status 0xC0000409 is STATUS_STACK_BUFFER_OVERRUN, and despite its name Windows ends every fail-fast with it: abort() in the C runtime, a failed assertion (GGML_ASSERT), a C++ exception nothing caught, as well as a corrupted stack. It is the Windows form of an abort: the reason is what the runner printed just before it (an assertion or error line); where this log does not hold it, it went to the runner's own output.",
  fix: "Windows records the crash with the module it happened in: Event Viewer, Windows Logs, Application, the Application Error event (ID 1000); in PowerShell: Get-WinEvent -FilterHashtable @{LogName='Application'; Id=1000} -MaxEvents 5 | Format-List.",
  action: [
    {
      kind: 'step',
      text: "Windows records the crash with the module it happened in: Event Viewer, Windows Logs, Application, the Application Error event (ID 1000); in PowerShell: Get-WinEvent -FilterHashtable @{LogName='Application'; Id=1000} -MaxEvents 5 | Format-List.",
    },
  ],
  references: [
    'https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-erref/596a1078-e883-4972-9bbc-49e60bebca55',
  ],
  weight: 0.01,
});
