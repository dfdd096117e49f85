import { defineGrammar } from '../define-grammar.js';
import { ASSERTS_NOTHING } from './ggml-asserts.js';
import { HEAP_CHECKS, STACK_CHECKS } from './heap-checks.js';

/** C and C++: `terminate called ...`, `what():`, assertions in their several shapes, the error lines of the C++ engines (TensorRT-LLM, TurboMind, llama.cpp's loader, ggml's aborts). */
export default defineGrammar({
  runtime: 'cpp',
  lines: [
    // A standard exception whose what() is only its own name (`what():  bad_function_call`) or the
    // container method that threw it (`what():  vector::_M_default_append`) says less than the
    // `terminate called after throwing an instance of 'std::length_error'` line above it.
    {
      id: 'cpp-what-bare-name',
      rank: 9,
      pattern:
        /^\s*what\(\):\s+((?:std::)?bad_\w+|(?:std::)?(?:vector|basic_string|string|map|unordered_map|deque|bitset|array)::[\w:]+)\s*$/,
      fatal: true,
      strength: 12,
      message: (m) => m[1] ?? '',
      crash: true,
    },
    {
      id: 'cpp-what',
      rank: 10,
      pattern: /^\s*what\(\):\s+(.+)$/,
      fatal: true,
      strength: 45,
      message: (m) => m[1] ?? '',
      crash: true,
    },
    {
      id: 'cpp-terminate',
      rank: 80,
      pattern: /terminate called after throwing an instance of '([^']+)'/,
      fatal: true,
      // Below its what() when that says more; above the errors a process logged before it aborted.
      strength: 40,
    },
    {
      id: 'cpp-terminate-bare',
      rank: 90,
      pattern: /terminate called without an active exception/,
      fatal: true,
      strength: 20,
    },
    // A C++ library's own error line, `[libprotobuf ERROR FILE:LINE] ...`: the reason the caller's
    // "failed to read" names no further (Triton's glog line about the same file comes first).
    {
      id: 'library-error',
      rank: 175,
      pattern: /^\[lib[\w-]+ (?:ERROR|FATAL) [^\]]*\] (.+)/,
      fatal: false,
      strength: 32,
      message: (m) => m[1] ?? '',
    },
    {
      id: 'tm-error',
      rank: 180,
      pattern: /\[TM\]\[(?:ERROR|FATAL)\] (.+)/,
      fatal: true,
      strength: 42,
      crash: true,
    },
    {
      id: 'trt-error',
      rank: 190,
      pattern: /^\[TensorRT-LLM\]\[ERROR\] (.+)|^\d+: \[[\w.:]+\] Error Code \d+/,
      fatal: true,
      strength: 38,
    },
    // llama.cpp's conclusion that the model did not load (`main: failed to load model from 'x.bin'`): the
    // loader's line before it says why (`llama_model_load: tensor 'tok_embeddings.weight' has wrong size`).
    {
      id: 'llama-load-conclusion',
      rank: 368,
      pattern: /^\w+: (?:error: )?failed to load model\b/,
      fatal: true,
      strength: 36,
      messageOnLineBefore: true,
    },
    // llama.cpp refusing a context its settings rule out (`llama_init_from_model: V cache quantization requires
    // flash_attn`): the caller's `failed to create context` and Ollama's `panic: unable to create llama
    // context` after it say no more, and the segmentation fault a fork may end in less.
    {
      id: 'llama-context-refused',
      rank: 369,
      pattern: /^\w+: .*\brequires flash[_ ]attn\b.*/,
      fatal: true,
      strength: 38,
    },
    // A llama.cpp function's own report (`llama_model_load: error loading model: ...`, early builds without
    // the function's name), a call in it that failed included (`llama_new_context_with_model: ggml_metal_init() failed`).
    // LM Studio writes each message on the line after its `2026-01-01 08:05:07 [DEBUG]` header, one space in.
    {
      id: 'llama-load',
      rank: 370,
      pattern:
        /^ ?error loading model: |^ ?\w+: (?:error loading model|failed to (?:load|open|read|initialize|allocate)|error: |unable to load|couldn't|cannot |could not |invalid |insufficient memory|not enough space |op not supported |unsupported op |\w+\(\) failed\s*$)/,
      fatal: true,
      strength: 36,
    },
    // llama.cpp's sampler that could not read a request's grammar: its parser's line before it says where
    // (`parse: error parsing grammar: expecting newline or end at "route"`). A request's error: survived, unless the
    // process dies of it.
    {
      id: 'llama-grammar-conclusion',
      rank: 371,
      pattern: /^\w+: failed to parse grammar\s*$/,
      fatal: false,
      strength: 30,
      messageOnLineBefore: true,
    },
    // An assertion that names nothing (`GGML_ASSERT: ggml-opencl.cpp:1747: false`, `GGML_ASSERT(ok) failed`):
    // the line before it, when it speaks of a failure no row reads (`CLBlast: OpenCL error: ...: -54`), says what.
    {
      id: 'llama-assert-nothing',
      rank: 378,
      pattern: ASSERTS_NOTHING,
      fatal: true,
      strength: 36,
      crash: true,
      messageOnLineBefore: true,
    },
    {
      id: 'llama-abort',
      rank: 380,
      // Not a debugger's frame (`#2 0x... in ggml_abort () from ...`, `#2  ggml_abort (file=..., fmt=...
      // "GGML_ASSERT(%s) failed")`) nor glibc's backtrace (`libggml.so(ggml_abort+0xd8)[0x7455f847d6b8]`):
      // the abort itself, or its assert.
      pattern: /^(?!#\d+\s|\S*\(ggml_abort\+0x)(?:.*GGML_ASSERT|\S.*\bggml_abort\b|.*: CUDA error$)/,
      fatal: true,
      strength: 36,
      crash: true,
    },
    // LLVM's fatal error (Triton's and the ROCm compiler's lowering): the process's own reason, which the
    // caller's `PassManager::run failed` names no further.
    {
      id: 'llvm-fatal',
      rank: 165,
      pattern: /^LLVM ERROR: (.+)/,
      fatal: true,
      strength: 44,
      message: (m) => m[1] ?? '',
      crash: true,
    },
    // A C, C++ or CUDA compiler's error (gcc, clang, nvcc `FILE(LINE): error:`): a JIT build that failed.
    // The exception that follows names it; alone at the end of a log it is where the start stopped.
    {
      id: 'compiler-error',
      rank: 168,
      pattern: /^\S+\.(?:c|cc|cpp|cxx|cu|cuh|h|hpp|hh)(?::\d+(?::\d+)?|\(\d+\)): (?:fatal )?error: .+/,
      fatal: false,
      strength: 28,
    },
    // glibc's assert(): `PROG: FILE:LINE: FUNC: Assertion `EXPR' failed.`; HIP's kernel assert the same way:
    // `Indexing.hip:1294: indexSelectLargeIndex: Device-side assertion `srcIndex < srcSelectDimSize' failed.`;
    // CUDA's device assert in a Triton kernel closes its expression with a backtick (`...py:62: unknown:
    // block: [486,0,0], thread: [8,0,0] Assertion `index out of bounds: 0 <= tmp < 131072` failed.`).
    {
      id: 'c-assert-glibc',
      rank: 15,
      pattern: /(?:: |\] )(?:Device-side a|A)ssertion [`'].+[`'] failed\.?\s*$/,
      fatal: true,
      strength: 42,
      crash: true,
    },
    // BSD, macOS, MSVC and TLLM_CHECK: `Assertion failed: EXPR ...`; newlib and bionic: `assertion "EXPR" failed: file ...`.
    {
      id: 'c-assert-failed',
      rank: 16,
      pattern: /\bAssertion failed: .+|\bassertion "[^"]+" failed: file/,
      fatal: true,
      strength: 42,
      crash: true,
    },
    // Cosmopolitan's assert (llamafile): `./llama.cpp/json.h:21450: assert(EXPR) failed (cosmoaddr2line ...)`.
    {
      id: 'c-assert-cosmopolitan',
      rank: 21,
      pattern: /^\S+:\d+: assert\(.+\) failed\b/,
      fatal: true,
      strength: 42,
      message: (m) => m[0],
      crash: true,
    },
    // libc++'s std::terminate: `libc++abi: terminating due to uncaught exception of type std::length_error: vector`.
    {
      id: 'cpp-libcxx-terminate',
      rank: 17,
      pattern: /\bterminating (?:due to|with) uncaught exception of type .+/,
      fatal: true,
      strength: 42,
      crash: true,
    },
    // glibc's heap and stack checks, which abort the process: `double free or corruption (!prev)`,
    // `free(): invalid pointer`, `*** stack smashing detected ***: terminated`, and before glibc 2.26 the
    // same inside `*** Error in `python': ... ***`, or glued to the end of another process's line that had no
    // newline (`...version: 0.9.0free(): invalid pointer`). Memory that native code (a kernel library, an
    // extension) corrupted earlier; the abort that follows names nothing more.
    {
      id: 'glibc-heap-check',
      rank: 19,
      pattern: new RegExp(
        String.raw`(?:^|\*+ Error in \x60[^\x60]*': )((?:${HEAP_CHECKS})(?:: 0x[0-9a-f]+)?)|((?:${HEAP_CHECKS})(?:: 0x[0-9a-f]+)?)\s*$|\*+ ${STACK_CHECKS} \*+`,
      ),
      fatal: true,
      strength: 40,
      message: (m) => (m[1] ?? m[2] ?? m[0]).replace(/^\*+ /, '*** '),
      crash: true,
    },
    // glog and absl: `F1201 08:00:00.123456  1234 file.cc:12] Check failed: a == b (1 vs. 2)`.
    {
      id: 'glog-fatal',
      rank: 18,
      pattern: /^F\d{4} [\d:.]+\s+\d+ \S+:\d+\] .+|\bCheck failed: .+/,
      fatal: true,
      strength: 40,
      crash: true,
    },
    // ggml_abort and GGML_ASSERT print `FILE:LINE: MESSAGE` (`llama.cpp:11968: The current context does not
    // support K-shift`; a Windows build's path: `D:\a\llama.cpp\ggml\src\ggml-cuda\mmq.cuh:107: fatal error`).
    {
      id: 'ggml-abort-message',
      rank: 375,
      pattern: /^(?:\S+[/\\])?[\w.-]+\.(?:cpp|cc|cu|cuh|c):\d+: (?!\w+: Assertion)\S.{4,}$/,
      fatal: true,
      strength: 38,
      crash: true,
    },
    // LLVM's `llvm_unreachable`, in a shader or kernel compiler the runtime loaded (SPIR-V's translator).
    {
      id: 'llvm-unreachable',
      rank: 105,
      pattern: /\bUNREACHABLE executed at \S+/,
      fatal: true,
      strength: 40,
      crash: true,
    },
    // A compiler's diagnostic (`file:line:col: error: ...`): Triton's MLIR passes, nvcc, gcc. Its wrapper
    // (`RuntimeError: PassManager::run failed`, a build that exited 1) is what makes it fatal.
    {
      id: 'compiler-diagnostic',
      rank: 1025,
      pattern: /^\S+:\d+:\d+: (?:fatal )?error: (.+)/,
      fatal: false,
      strength: 34,
    },
  ],
});
