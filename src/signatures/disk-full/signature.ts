import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'disk-full',
  title: 'a filesystem the server writes to is full',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy', 'trtllm', 'ollama', 'llamacpp'],
  keywords: ['no space left on device', 'os error 28'],
  match: {
    // /dev/shm has its own signature; a download has a more specific one.
    message: /No space left on device(?![^\n]*\/dev\/shm)(?![^\n]*<\/torch_)|\(os error 28\)/i,
  },
  explanation:
    'A write failed with ENOSPC: the filesystem behind it is full (or out of inodes). At start-up the writers are ' +
    'the model download cache, the compile caches (torch.compile / Inductor, Triton, flashinfer and DeepGEMM JIT ' +
    'under ~/.cache), /tmp, and log files; in a container they usually share a small root filesystem.',
  fix: 'Find the full filesystem with `df -h` and `df -i` (inside the container), then free space or move the cache there to a larger volume (`HF_HOME`, `XDG_CACHE_HOME`, `TRITON_CACHE_DIR`, `TMPDIR`).',
  action: [
    { kind: 'step', text: 'Find the full filesystem (sizes, then inodes):' },
    { kind: 'command', argv: ['df', '-h'], where: 'server' },
    { kind: 'command', argv: ['df', '-i'], where: 'server' },
    {
      kind: 'step',
      text: 'then free space there, or move the caches on it to a larger volume (HF_HOME, XDG_CACHE_HOME, TRITON_CACHE_DIR, TMPDIR)',
    },
  ],
  alternative:
    'Mount a persistent volume for ~/.cache so caches survive restarts and do not refill the root filesystem.',
  references: [
    'https://man7.org/linux/man-pages/man3/errno.3.html',
    'https://huggingface.co/docs/huggingface_hub/guides/manage-cache',
  ],
  // A cause, but a generic one: the download-specific and /dev/shm signatures say more.
  weight: 0.6,
});
