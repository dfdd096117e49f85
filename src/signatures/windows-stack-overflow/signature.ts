import { defineSignature } from '../define-signature.js';

// A death with no cause in the log: the finding is how it died and where that is recorded. Its weight is
// the least, so a cause the log does hold is never outweighed by the death it led to.
export default defineSignature({
  id: 'windows-stack-overflow',
  title: 'a native crash on Windows: stack overflow (0xC00000FD)',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['0xc00000fd', '3221225725', '-1073741571'],
  match: {
    exception: null,
    // STATUS_STACK_OVERFLOW: Go and Ollama print it in hex, Python's subprocess as 3221225725 or -1073741571.
    message: /\b0x[cC]00000fd\b|\b3221225725\b|-1073741571\b/,
  },
  explanation:
    "Exit status 0xC00000FD is STATUS_STACK_OVERFLOW: a thread used up its stack, through deep recursion or a large array on the stack in native code. A thread's stack on Windows (1 MB by default) is smaller than on Linux (8 MB), so code that runs on Linux can overflow here.",
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
