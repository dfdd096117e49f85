import { defineGrammar } from '../define-grammar.js';

/** GPU runtimes: CUDA, cuBLAS/cuDNN, HIP, NPU, Vulkan and Metal errors, and a server giving up its GPU. */
export default defineGrammar({
  runtime: 'gpu',
  lines: [
    {
      id: 'cuda-oom',
      rank: 30,
      pattern: /CUDA out of memory|OutOfMemoryError|CUDA_ERROR_OUT_OF_MEMORY/,
      fatal: true,
      strength: 42,
      crash: true,
    },
    // The CUDA runtime's own error strings, printed bare by the C++ engines (`cudaGetErrorString`).
    {
      id: 'cuda-error-string',
      rank: 60,
      pattern:
        /^(?:no kernel image is available for execution on the device|an illegal memory access was encountered|device-side assert triggered|misaligned address|unspecified launch failure|the provided PTX was compiled with an unsupported toolchain|CUDA driver version is insufficient for CUDA runtime version|forward compatibility was attempted on non supported HW)\b/,
      fatal: true,
      strength: 40,
      crash: true,
    },
    // A GPU server that gives up its GPU has failed as one, though it goes on (Ollama on a too-old card).
    {
      id: 'gpu-fallback',
      rank: 70,
      pattern:
        /\b(?:GPU|CUDA)\b.{0,60}\b(?:too old|not supported|unsupported)\b.{0,60}\bfalling back to CPU\b/i,
      fatal: true,
      strength: 38,
    },
    {
      id: 'cuda-error',
      rank: 100,
      pattern: /\bCUDA (?:error|Error|runtime error)\b(?:[: ].*)?$/,
      fatal: true,
      strength: 42,
      crash: true,
    },
    {
      id: 'cublas-error',
      rank: 110,
      pattern: /\bcu(?:BLAS|DNN|FFT|SPARSE) error\b/i,
      fatal: true,
      strength: 40,
      crash: true,
    },
    {
      id: 'cuda-failed',
      rank: 120,
      pattern: /\bFailed: Cuda error\b|cudaMalloc failed|\bcuda(?:Malloc|Memcpy)\w* failed/,
      fatal: true,
      strength: 42,
      crash: true,
    },
    // The CUDA driver API's own result code, as a C++ library prints it (torch_memory_saver's
    // `CUresult error: 2 (out of memory)` as SGLang takes its memory back).
    {
      id: 'cuda-driver-result',
      rank: 125,
      pattern: /\bCUresult error: \d+ \([^)]+\)/,
      fatal: true,
      strength: 40,
      crash: true,
    },
    {
      id: 'ggml-cuda-init',
      rank: 130,
      pattern: /ggml_cuda_init: failed to initialize CUDA: (.+)/,
      fatal: true,
      strength: 38,
    },
    {
      id: 'no-cuda-gpus',
      rank: 430,
      pattern:
        /no CUDA-capable device is detected|Found no NVIDIA driver|NVIDIA driver on your system is too old|NVML Shared Library Not Found|Failed to initialize NVML/,
      fatal: false,
      strength: 38,
      quiet: true,
    },
    // Vulkan and Metal through ggml, HIP and ROCm, Ascend NPUs: the device said no.
    {
      id: 'vulkan-error',
      rank: 95,
      pattern: /Device memory allocation of size \d+ failed|\bErrorOutOfDeviceMemory\b|\bErrorDeviceLost\b/,
      fatal: true,
      strength: 41,
      crash: true,
    },
    // Metal's reason for a failed command buffer, on the line after it: out of memory is the cause.
    {
      id: 'metal-oom',
      rank: 94,
      pattern: /kIOGPUCommandBufferCallbackErrorOutOfMemory|\bInsufficient Memory\b.*\bkIOGPU/,
      fatal: true,
      strength: 42,
      crash: true,
    },
    {
      id: 'metal-error',
      rank: 96,
      pattern: /\bggml_metal_\w+: error: .+|kIO(?:GPU|Accel)CommandBufferCallbackError\w+/,
      fatal: true,
      strength: 40,
      crash: true,
    },
    // Apple's Metal framework checks its API's use and aborts the process: `-[MTLComputePipelineDescriptorInternal
    // setComputeFunction:withType:]:722: failed assertion `computeFunction must not be nil.'`.
    {
      id: 'metal-api-assertion',
      rank: 88,
      pattern: /^-\[MTL\w+ [\w:]+\]:\d+: (failed assertion .+)/,
      fatal: true,
      strength: 40,
      crash: true,
      message: (m) => m[1] ?? '',
    },
    // ggml's Metal backend on a command buffer the GPU failed: its reason (above) is on the line after it.
    {
      id: 'metal-command-buffer-failed',
      rank: 91,
      pattern: /\bggml_metal_\w+: command buffer \d+ failed with status \d+/,
      fatal: true,
      strength: 34,
      crash: true,
    },
    // The NVIDIA kernel driver's report of a GPU fault (dmesg, `journalctl -k`, a merged journal): an Xid
    // and its number, or a GPU gone from the bus (newer drivers print that over three NVRM lines).
    {
      id: 'nvrm-xid',
      rank: 89,
      pattern: /\bNVRM: (Xid \(PCI:[\w:.]+\): \d+\b.*)|\bNVRM: (.*\bfallen off the bus\b.*)/,
      fatal: true,
      // Above a CUDA error's: the driver saw the fault that every CUDA call after it fails of.
      strength: 50,
      message: (m) => `NVRM: ${m[1] ?? m[2] ?? ''}`,
      crash: true,
    },
    // oneAPI's SYCL runtime (llama.cpp's SYCL backend on Intel GPUs): the code of the call that failed,
    // then ggml's `Exception caught at file:...ggml-sycl.cpp` that only says where.
    {
      id: 'sycl-native-api-failed',
      rank: 101,
      pattern: /\bNative API failed\. Native API returns: -?\d+.*/,
      fatal: true,
      strength: 41,
      crash: true,
    },
    // Intel's GPU compute runtime (NEO, under SYCL and Level Zero) ending its process: `Abort was called at 63 line
    // in file:`, the runtime's source file on the next line.
    {
      id: 'intel-compute-runtime-abort',
      rank: 113,
      pattern: /^Abort was called at \d+ line in file:/,
      fatal: true,
      strength: 35,
      crash: true,
    },
    // oneDNN, under SYCL's matrix multiply on Intel GPUs: ggml-sycl prints the exception's text, then
    // `Exception caught at file:...` and its `SYCL error` abort, which only say where.
    {
      id: 'onednn-primitive-failed',
      rank: 102,
      pattern: /^could not create a primitive(?: descriptor)? for an? \w+ primitive\b.*/,
      fatal: true,
      strength: 41,
      crash: true,
    },
    {
      id: 'hip-error',
      rank: 97,
      pattern: /\bHIP error\b|\bROCm error\b|\bhipError\w+|\bHSA_STATUS_ERROR_\w+/,
      fatal: true,
      strength: 41,
      crash: true,
    },
    // The ROCm runtime's (CLR's) own error log, `:0:FILE.cpp :LINE: TIME us: MESSAGE` (level 0: always
    // printed), just before it aborts: `Cannot find Symbol with name: ...` of a kernel the build lacks.
    {
      id: 'hip-runtime-log',
      rank: 109,
      pattern: /:0:\S+\.cpp\s*:\d+\s*: \d+ us:\s+(\S.*)/,
      fatal: true,
      strength: 40,
      crash: true,
      message: (m) => m[1] ?? '',
    },
    // The ROCm runtime's own report of a GPU page fault, printed just before it aborts the process.
    {
      id: 'hsa-memory-access-fault',
      rank: 99,
      pattern: /^Memory access fault by GPU node-\d+\b.*/,
      fatal: true,
      strength: 42,
      crash: true,
    },
    { id: 'npu-oom', rank: 98, pattern: /\bNPU out of memory\b/, fatal: true, strength: 42, crash: true },
    // Mesa's RADV driver on the amdgpu kernel driver (Vulkan on AMD): the GPU context lost, no memory to
    // submit work. ggml's `device lost` after it only says the queue died.
    {
      id: 'radv-amdgpu-error',
      rank: 93,
      pattern: /\bradv\/amdgpu: (.+)/,
      fatal: true,
      strength: 42,
      crash: true,
      message: (m) => `radv/amdgpu: ${m[1] ?? ''}`,
    },
    // ROCm's BLAS libraries: a kernel library missing for this GPU's architecture, or a failed call.
    {
      id: 'rocm-blas-error',
      rank: 92,
      pattern: /\b(?:rocBLAS|hipBLASLt|rocblaslt) error: .+/,
      fatal: true,
      strength: 42,
      crash: true,
    },
    // TensorRT's own error log: `[defaultAllocator.cpp::allocate::31] Error Code 1: Cuda Runtime (out of memory)`.
    {
      id: 'tensorrt-error-code',
      rank: 103,
      pattern: /\[[\w.]+::\w+::\d+\] Error Code \d+: .+/,
      fatal: true,
      strength: 44,
      crash: true,
    },
    // ggml-sycl's device allocator: `alloc: can't allocate 568118476 Bytes of memory on device/GPU`.
    {
      id: 'sycl-alloc-failed',
      rank: 104,
      pattern: /\bcan't allocate \d+ Bytes of memory on device/i,
      fatal: true,
      strength: 41,
      crash: true,
    },
    // ggml-sycl's catch of a SYCL or oneMKL exception: it prints the exception's text, then this line,
    // which only says where (oneDNN's and the Native API's own lines are rows above).
    {
      id: 'sycl-exception-caught',
      rank: 107,
      pattern: /\bException caught at file:\S+, line:\d+/,
      fatal: true,
      strength: 37,
      crash: true,
      messageOnLineBefore: true,
    },
    // ...or its text with no newline after it, on the same line (`No kernel named _ZTS... was foundException caught at
    // file:...ggml-sycl.cpp, line:4199`): that text says what.
    {
      id: 'sycl-exception-said-before',
      rank: 85,
      pattern: /^(\S.*?)\s*Exception caught at file:\S+, line:\d+/,
      fatal: true,
      strength: 40,
      message: (m) => m[1] ?? '',
      crash: true,
    },
    // An Ascend C kernel's own assert on the NPU (its macro prints `[ASSERT] [CANN_VERSION : V][TimeStamp : N]
    // FILE:LINE: Assertion `EXPR' MESSAGE`): the fault that the CANN runtime's `EZ9999` trace, the stream
    // error and torch_npu's `ACL stream synchronize failed` after it report, as a CUDA device assert is.
    {
      id: 'ascendc-kernel-assert',
      rank: 111,
      pattern: /^\[ASSERT\] \[CANN_VERSION : [^\]]*\]\[TimeStamp : \d+\] (\S+:\d+: Assertion `.*)/,
      message: (m) => m[1] ?? '',
      fatal: true,
      strength: 42,
      crash: true,
    },
    // CANN's runtime error trace, each line a step of an error's way up, tagged with where it was logged
    // (`rtGetDeviceCount execution failed, reason=driver error:internal error[FUNC:FuncErrorReason][FILE:
    // error_message_manage.cc][LINE:65]`, then `get device count failed, runtime result = 507899.[FUNC:...]`).
    {
      id: 'cann-runtime-trace',
      rank: 112,
      // CANN tags only its error trace's lines so; a word of failure is not asked for, which keeps the
      // pattern linear on a long line.
      pattern: /^\s*(\S.*?)\[FUNC:\w+\]\[FILE:[\w.]+\]\[LINE:\d+\]\s*$/,
      message: (m) => m[1] ?? '',
      fatal: true,
      // Below an error line's: torch_npu's `NPU function error: ..., error code is N` before the trace says
      // what failed in its own words; above a hint's, where the trace is all a start printed.
      strength: 21,
    },
    // Huawei's CANN (Ascend NPUs) under ggml: `CANN error: EZ9999: Inner Error!`, its device's lines after it.
    {
      id: 'cann-error',
      rank: 108,
      pattern: /^CANN error: (E[A-Z0-9]\d{4}: .+)/,
      fatal: true,
      strength: 37,
      crash: true,
    },
  ],
});
