import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'flashinfer-version-mismatch',
  title: 'flashinfer packages at different versions',
  category: 'dependency-mismatch',
  engines: ['vllm', 'sglang', 'trtllm'],
  keywords: ['does not match flashinfer version'],
  match: {
    exception: 'RuntimeError',
    message:
      /flashinfer-(?<part>cubin|jit-cache) version \((?<have>[^)+]+)(?:\+[^)]*)?\) does not match flashinfer version \((?<want>[^)]+)\)/,
  },
  explanation:
    'flashinfer ships as flashinfer-python plus prebuilt kernels in flashinfer-{part}, and refuses to start when the two ' +
    'differ. No package metadata ties them together, so a reinstall or upgrade that moves one (here flashinfer-python ' +
    'to {want}) leaves the other behind at {have} and pip check stays clean.',
  fix: 'pip install "flashinfer-{part}=={want}"',
  action: [{ kind: 'install', requirements: ['flashinfer-{part}=={want}'] }],
  // The index for flashinfer-{part} (and the CUDA tag of jit-cache's) is added where the fix is aimed at
  // the crashed environment (fix/render-install.ts), from that environment's own torch.
  alternative:
    'Or, if your engine accepts it, pin flashinfer-python back to the kernels you have: ' +
    'pip install "flashinfer-python=={have}". ' +
    'FLASHINFER_DISABLE_VERSION_CHECK=1 only hides the check; kernels from another release may misbehave.',
  references: ['https://github.com/flashinfer-ai/flashinfer/blob/main/flashinfer/__init__.py'],
});
