import { defineSignature, type Signature } from './define-signature.js';

/** What differs between the Windows native crashes: the status, its name, what it means. */
interface WindowsCrash {
  id: string;
  /** The NTSTATUS code, e.g. 0xc0000005. */
  status: number;
  title: string;
  explanation: string;
}

const WHERE_RECORDED =
  "Windows records the crash with the module it happened in: Event Viewer, Windows Logs, Application, the Application Error event (ID 1000); in PowerShell: Get-WinEvent -FilterHashtable @{LogName='Application'; Id=1000} -MaxEvents 5 | Format-List.";

/**
 * A death with no cause in the log, on Windows: the finding is how it died and where that is recorded. Go
 * and Ollama print the status in hex, Python's subprocess as an unsigned or a signed 32-bit number. Its
 * weight is the least, so a cause the log does hold is never outweighed by the death it led to.
 */
export function defineWindowsCrash(crash: WindowsCrash): Signature {
  const hex = `0xc${crash.status.toString(16).padStart(8, '0').slice(1)}`;
  const unsigned = String(crash.status);
  const signed = String(crash.status - 2 ** 32);
  return defineSignature({
    id: crash.id,
    title: crash.title,
    category: 'other',
    engines: ['vllm', 'sglang', 'tgi', 'trtllm', 'llamacpp', 'ollama', 'lmdeploy'],
    keywords: [hex, unsigned, signed],
    match: {
      exception: null,
      message: new RegExp(`\\b0x[cC]${hex.slice(3)}\\b|\\b${unsigned}\\b|${signed}\\b`, 'i'),
    },
    explanation: crash.explanation,
    fix: WHERE_RECORDED,
    action: [{ kind: 'step', text: WHERE_RECORDED }],
    references: [
      'https://learn.microsoft.com/en-us/openspecs/windows_protocols/ms-erref/596a1078-e883-4972-9bbc-49e60bebca55',
    ],
    weight: 0.01,
  });
}
