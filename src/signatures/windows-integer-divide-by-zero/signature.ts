import { defineSignature } from '../define-signature.js';

// A death with no cause in the log: the finding is how it died and where that is recorded. Its weight is
// the least, so a cause the log does hold is never outweighed by the death it led to.
export default defineSignature({
  id: 'windows-integer-divide-by-zero',
  title: 'a native crash on Windows: integer division by zero (0xC0000094)',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['0xc0000094', '3221225620', '-1073741676'],
  match: {
    exception: null,
    // STATUS_INTEGER_DIVIDE_BY_ZERO: Go and Ollama print it in hex, Python's subprocess as 3221225620 or -1073741676.
    message: /\b0x[cC]0000094\b|\b3221225620\b|-1073741676\b/,
  },
  explanation:
    'Exit status 0xC0000094 is STATUS_INTEGER_DIVIDE_BY_ZERO: native code divided an integer by zero. In an inference runner that is a size it computed as zero from the model or the device (no GPU layers or devices, a block or split of 0, a GPU whose properties the backend read as 0): a bug of the runner for this model or GPU, which its issues usually name.',
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
