import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'windows-dll-load-failed',
  title: 'Windows could not load a DLL the server needs',
  category: 'missing-dependency',
  engines: ['vllm', 'sglang', 'tgi', 'llamacpp', 'ollama', 'lmdeploy'],
  keywords: ['dll load failed', 'winerror 126', 'winerror 127', 'winerror 1114', '0xc0000135', '3221225781'],
  match: {
    // Python's loader, torch's own DLL preloading ([WinError 126] ... Error loading "...\c10.dll"), and a native
    // runner that died with STATUS_DLL_NOT_FOUND (0xC0000135 = 3221225781).
    message: /DLL load failed|\[WinError (?:126|127|1114)\]|exit status 0xc0000135|\b3221225781\b/i,
  },
  explanation:
    'A compiled extension (torch, a CUDA kernel package) or a native runner is a DLL, and Windows could not load it or ' +
    'one of the DLLs it links against. The DLL that is named usually exists; one of its dependencies does not: the ' +
    'Microsoft Visual C++ runtime, the CUDA or cuDNN DLLs of the version it was built for, or a DLL shadowed by another ' +
    'copy earlier on PATH.',
  fix:
    'Install the latest Microsoft Visual C++ Redistributable (x64), then reinstall torch from the index of your CUDA ' +
    'version, e.g. `pip install --force-reinstall torch --index-url https://download.pytorch.org/whl/cu124`.',
  action: [
    {
      kind: 'step',
      text: 'Install the latest Microsoft Visual C++ Redistributable (x64), then reinstall torch from the index of your CUDA version:',
    },
    {
      kind: 'install',
      requirements: ['torch'],
      options: ['--force-reinstall'],
      index: 'https://download.pytorch.org/whl/cu124',
    },
  ],
  alternative:
    'Check which dependency is missing with `dumpbin /dependents <dll>` or Dependencies.exe, and remove older CUDA ' +
    'or Anaconda directories from PATH. Most inference servers support Windows only through WSL2 or Docker; running ' +
    'there avoids the problem.',
  references: [
    'https://github.com/pytorch/pytorch/blob/main/torch/__init__.py',
    'https://learn.microsoft.com/en-us/cpp/windows/latest-supported-vc-redist',
  ],
});
