import { defineGrammar } from '../define-grammar.js';
import { PYTHON_WARNING } from './warning.js';

/** Python: exceptions quoted outside a traceback (a loader's list, pydantic's messages, a bare `No module named`), warnings, `Fatal Python error`, `[Errno N]`. */
export default defineGrammar({
  runtime: 'python',
  lines: [
    // `Error details from previous import attempts:` then `- ImportError: ...`: the causes behind a loader's summary.
    {
      id: 'listed-exception',
      rank: 20,
      pattern: /^\s*[-*] ([A-Z]\w*(?:Error|Exception)): (.+)/,
      fatal: false,
      strength: 44,
      exception: (m) => m[1] ?? '',
      message: (m) => m[2] ?? '',
    },
    {
      id: 'bare-module-missing',
      rank: 50,
      pattern: /^No module named '([^']+)'/,
      fatal: false,
      strength: 40,
      exception: 'ModuleNotFoundError',
    },
    {
      id: 'no-platform',
      rank: 140,
      pattern: /No platform detected, vLLM is running on UnspecifiedPlatform/,
      fatal: true,
      strength: 5,
      quiet: true,
    },
    // pydantic's config validation: vLLM's EngineArgs checks surface this way.
    {
      id: 'pydantic-value-error',
      rank: 150,
      pattern: /^\s*Value error, (.+)/,
      fatal: true,
      strength: 44,
      exception: 'ValueError',
      message: (m) => m[1] ?? '',
    },
    {
      id: 'pydantic-assertion',
      rank: 160,
      pattern: /^\s*Assertion failed, (.+)/,
      fatal: true,
      strength: 42,
      exception: 'AssertionError',
      message: (m) => m[1] ?? '',
    },
    {
      id: 'python-warning',
      rank: 170,
      pattern: PYTHON_WARNING,
      fatal: false,
      strength: 12,
      // `RuntimeWarning: Failed to read commit hash:` then its reason on the next line.
      messageOnNextLine: true,
    },
    {
      id: 'fatal-python',
      rank: 290,
      pattern: /^Fatal Python error: (?!Aborted)(.+)/,
      fatal: true,
      strength: 34,
      crash: true,
    },
    { id: 'errno', rank: 350, pattern: /\[Errno \d+\] .+/, fatal: true, strength: 36, exception: 'OSError' },
    // `python -m vllm...` in the wrong interpreter: `.../python: Error while finding module specification for
    // 'vllm.entrypoints.openai.api_server' (ModuleNotFoundError: No module named 'vllm')`, `python3: No module named vllm`.
    {
      id: 'module-spec',
      rank: 45,
      pattern: /Error while finding module specification for '[^']+' \((\w+Error): (.+)\)\s*$/,
      fatal: true,
      strength: 44,
      exception: (m) => m[1] ?? '',
      message: (m) => m[2] ?? '',
    },
    {
      id: 'interpreter-no-module',
      rank: 46,
      pattern: /^\S*python[\d.]*: No module named (\S+)/,
      fatal: true,
      strength: 44,
      exception: 'ModuleNotFoundError',
      message: (m) => `No module named ${m[1] ?? ''}`,
    },
    // A server relaying its worker's exception by class (TGI's router: `Server error: Unexpected <class
    // 'RuntimeError'>: CUDA error: ...`): the worker's exception is the failure, read before the words in it.
    {
      id: 'relayed-exception-class',
      rank: 5,
      pattern: /<class '(?:[a-z_]\w*\.)*([A-Z]\w*)'>: (\S.{2,})$/,
      fatal: true,
      strength: 42,
      exception: (m) => m[1] ?? '',
      message: (m) => m[2] ?? '',
    },
    // An exception a request's handler caught, as its own __str__ writes it (SGLang's `Prefill transfer failed
    // for request ... with exception KVTransferError(bootstrap_room=...): Decode instance could be dead, ...`):
    // it failed that request; an error the process logged before it says more of why.
    {
      id: 'caught-exception',
      rank: 995,
      notFatalAsWarning: true,
      pattern: /\bwith exception ((?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))(?:\([^()]*\))?: (\S.{2,})$/,
      fatal: true,
      strength: 20,
      exception: (m) => m[1] ?? '',
      message: (m) => m[2] ?? '',
    },
    // A logger line quoting an exception (`ERROR: Failed to create instance: ValueError: ...`): tried last.
    {
      id: 'quoted-exception',
      rank: 1000,
      notFatalAsWarning: true,
      pattern: /(?:^|: )((?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception)): (\S.{2,})$/,
      fatal: true,
      strength: 40,
      exception: (m) => m[1] ?? '',
      message: (m) => m[2] ?? '',
    },
  ],
});
