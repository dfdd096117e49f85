import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'multiprocessing-main-guard-missing',
  title: 'script starts the engine without an if __name__ == "__main__" guard',
  category: 'other',
  engines: ['vllm', 'sglang'],
  keywords: ['finished its bootstrapping phase'],
  match: {
    message:
      /An attempt has been made to start a new process before the\s+current process has finished its bootstrapping phase/,
  },
  explanation:
    'The engine starts its workers with the spawn method, which re-imports your script in each new process. ' +
    'Because the script creates the engine at module level, every child tries to start the engine again before ' +
    'it has finished starting itself, and Python stops it.',
  fix: 'Move the code that creates the engine (LLM(...), sglang.Engine(...)) into a main() function called under if __name__ == "__main__":',
  alternative:
    'For vLLM only, VLLM_WORKER_MULTIPROC_METHOD=fork avoids the re-import, if CUDA is not initialised before the engine starts.',
  references: [
    'https://github.com/vllm-project/vllm/issues/5637',
    'https://github.com/SystemPanic/vllm-windows/issues/6',
  ],
});
