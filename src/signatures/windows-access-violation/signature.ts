import { defineSignature } from '../define-signature.js';

// A death with no cause in the log: the finding is how it died and where that is recorded. Its weight is
// the least, so a cause the log does hold is never outweighed by the death it led to.
export default defineSignature({
  id: 'windows-access-violation',
  title: 'a native crash on Windows: access violation (0xC0000005)',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['0xc0000005', '3221225477', '-1073741819'],
  match: {
    exception: null,
    // STATUS_ACCESS_VIOLATION: Go and Ollama print it in hex, Python's subprocess as 3221225477 or -1073741819.
    message: /\b0x[cC]0000005\b|\b3221225477\b|-1073741819\b/,
  },
  explanation:
    "Exit status 0xC0000005 is STATUS_ACCESS_VIOLATION, the Windows form of a segmentation fault: native code (the runner, a GPU backend's DLL, the driver) read or wrote memory it does not own. The usual causes: a GPU driver that does not fit the build, a model this version of the runner mishandles, or an allocation that failed unchecked when memory ran out.",
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
