import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'cuda-reinit-in-forked-subprocess',
  title: 'CUDA initialised before worker processes were forked',
  category: 'other',
  engines: ['vllm', 'sglang', 'tgi', 'lmdeploy'],
  keywords: ['cannot re-initialize cuda in forked subprocess'],
  match: {
    message: /Cannot re-initialize CUDA in forked subprocess/,
  },
  explanation:
    'The parent process touched CUDA (a torch.cuda call, often in your own script or a library imported before ' +
    'the engine) and then the engine forked its worker processes. A forked child cannot initialise CUDA again, ' +
    'so every worker fails at init_device; only spawned workers can.',
  fix: 'export VLLM_WORKER_MULTIPROC_METHOD=spawn before starting (in scripts, put the LLM(...) call under if __name__ == "__main__":)',
  action: [
    { kind: 'environment-variable', name: 'VLLM_WORKER_MULTIPROC_METHOD', value: 'spawn', engines: ['vllm'] },
    { kind: 'step', text: 'In scripts, put the LLM(...) call under if __name__ == "__main__":' },
  ],
  alternative:
    'Or keep CUDA out of the parent until the engine has started its workers: no torch.cuda calls, .cuda() or ' +
    'CUDA_VISIBLE_DEVICES probing at import time.',
  references: ['https://github.com/vllm-project/vllm/issues/7077'],
});
