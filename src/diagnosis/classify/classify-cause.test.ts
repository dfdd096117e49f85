import { describe, expect, it } from 'vitest';
import type { Frame } from '../../parsing/traceback.js';
import { CATEGORIES } from '../../types/diagnosis.js';
import { CATEGORY_RULES } from './categories.js';
import { classifyCause, searchUrl } from './classify-cause.js';

const frame = (file: string, fn = 'f'): Frame => ({ file, line: 1, function: fn, code: null });

describe('classifyCause', () => {
  it.each([
    ['torch.OutOfMemoryError', 'CUDA out of memory. Tried to allocate 2.00 GiB', [], 'oom-gpu'],
    [
      null,
      'ggml_backend_cuda_buffer_type_alloc_buffer: allocating 1024 MiB on device 0: cudaMalloc failed: out of memory',
      [],
      'oom-gpu',
    ],
    [
      'ValueError',
      'No available memory for the cache blocks. Try increasing `gpu_memory_utilization`',
      [],
      'kv-cache-insufficient',
    ],
    ['RuntimeError', 'CUDA error: an illegal memory access was encountered', [], 'illegal-memory-access'],
    // llama.cpp's and its forks' words (fresh-y llamacpp-6901, llamacpp-6908, llamacpp-6902; sglang-7210, vllm-7003).
    [
      null,
      "clip_init: failed to load model '/models/model.mmproj': load_hparams: unknown projector type: gemma4uv",
      [],
      'model-unsupported-arch',
    ],
    [null, 'llama_init_from_model: V cache quantization requires flash_attn', [], 'config-invalid'],
    [
      null,
      'CANN error: EZ9903: [PID: 71888] 2025-12-17-18:13:01.238.630 support for Ascend910 is not implemented',
      [],
      'gpu-arch-unsupported',
    ],
    [
      'RuntimeError',
      'EZ9999[PID: 28568] AclNN_Inner_Error(EZ9999):  Op MoeDistributeDispatchV2 not support soc version ascend910b.',
      [],
      'gpu-arch-unsupported',
    ],
    [null, 'Unsupported connector type: LMCacheConnectorV1', [], 'config-invalid'],
    // CUDA's kernel assertion by block and thread (fresh-n sglang-4007, vllm-4008): a device-side assert.
    [
      null,
      '../aten/src/ATen/native/cuda/ScatterGatherKernel.cu:144: operator(): block: [0,0,0], thread: [0,0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && "index out of bounds"` failed.',
      [],
      'illegal-memory-access',
    ],
    // Settings that do not fit the model: context shift, a tensor's shape or its dtype (fresh sets e, h, n).
    [null, 'llama.cpp:11968: The current context does not support K-shift', [], 'config-invalid'],
    [
      'RuntimeError',
      'mat1 and mat2 shapes cannot be multiplied (1x5120 and 4096x4096)',
      [],
      'config-invalid',
    ],
    // Set p: macOS's loader missing a library; a model file that ends early; a feature one backend alone has.
    [null, 'dyld[41630]: Library not loaded: @rpath/libllama-common.0.dylib', [], 'missing-dependency'],
    [null, 'error loading model: unexpectedly reached end of file', [], 'model-load-weights'],
    ['AssertionError', 'Attention sinks are only supported for TRTLLM backend.', [], 'config-invalid'],
    // Set o: a library `not available or outdated` that the message asks to install is missing; a kernel not
    // written for an architecture; a setting's value the method does not take; a LoRA path with no adapter.
    [
      'RuntimeError',
      'DeepGEMM backend is not available or outdated. Please install or update the `deep_gemm` to a newer version to enable FP8 kernels.',
      [],
      'missing-dependency',
    ],
    [
      'RuntimeError',
      'Currently, block scaled fp8 gemm is not implemented for Blackwell',
      [],
      'gpu-arch-unsupported',
    ],
    [
      'ValueError',
      'Unsupported mxfp4_backend for Mxfp4MoEMethod: Mxfp4MoeBackend.FLASHINFER_CUTLASS_MXFP4_MXFP8. Expected TRTLLM, Triton, AITER, or XPU backend.',
      [],
      'config-invalid',
    ],
    [
      'ValueError',
      'Loading lora ["table_qc failed: No adapter found for /data/lora/checkpoint-57"]',
      [],
      'config-invalid',
    ],
    // A checkpoint's tensor the architecture has no place for (fresh-k vllm-3568).
    [
      'ValueError',
      "There is no module or parameter named 'lm_head.qweight_type' in Qwen2ForCausalLM",
      [],
      'model-load-weights',
    ],
    // Words of one kind in other engines' and libraries' spelling (fresh sets b-m).
    ['NoFreeBlocksError', '', [], 'kv-cache-insufficient'],
    ['ValueError', 'Failed to allocate token prealloc indices', [], 'kv-cache-insufficient'],
    [
      'RuntimeError',
      'create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:148 HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, &config, &comm), error code is 2',
      [],
      'distributed-nccl',
    ],
    // RDMA transports between ranks (fresh-j sglang-3362, fresh-k sglang-3414, fresh-r vllm-4851).
    [null, 'Local protection error on mlx5_0:1/RoCE (synd 0x4 vend 0x51 hw', [], 'distributed-nccl'],
    [
      null,
      'rdma_context.cpp:203] Failed to register memory 0x7c1cda000000: Bad address [14]',
      [],
      'distributed-nccl',
    ],
    [
      'RuntimeError',
      'Failed to allocate memory for batch_prefill_tmp_v with size 450494464 and alignment 16 in AlignedAllocator',
      [],
      'oom-gpu',
    ],
    [
      'RuntimeError',
      'Form data requires "python-multipart" to be installed. You can install "python-multipart" with:',
      [],
      'missing-dependency',
    ],
    // A build tool that is missing is a dependency, not a compile error (fresh-n sglang-4015).
    ['FileNotFoundError', "[Errno 2] No such file or directory: 'ninja'", [], 'missing-dependency'],
    [null, 'sh: 1: nvcc: not found', [], 'missing-dependency'],
    // HIP's kernel assertion, like CUDA's device-side assert; rocBLAS without kernels for the GPU's arch.
    [
      null,
      "Indexing.hip:1294: indexSelectLargeIndex: Device-side assertion `srcIndex < srcSelectDimSize' failed.",
      [],
      'illegal-memory-access',
    ],
    [null, 'rocBLAS error: Could not initialize Tensile host: No devices found', [], 'gpu-arch-unsupported'],
    // cuBLAS that cannot create its handle has found no memory left; a device's allocator failing.
    [null, 'CUDA error: CUBLAS_STATUS_NOT_INITIALIZED', [], 'oom-gpu'],
    ['RuntimeError', 'nrt_tensor_allocate status=4 message="Allocation Failure"', [], 'oom-gpu'],
    ['RuntimeError', 'SGLang only supports sm75 and above.', [], 'gpu-arch-unsupported'],
    [null, 'amdgpu is not supported', [], 'gpu-arch-unsupported'],
    // Open MPI's shared-memory transport between ranks.
    [null, '[40a8c9673b05:1447853] Read -1, expected 33554432, errno = 14', [], 'distributed-nccl'],
    // A model's config without a field the engine reads: the engine does not know this model's config;
    // a compiled op the installed build lacks: a kernel package built without it. Other objects' missing
    // attributes are one package calling another of another version.
    ['AttributeError', "'Gemma3Config' object has no attribute 'vocab_size'", [], 'model-unsupported-arch'],
    [
      'AttributeError',
      "'_OpNamespace' '_C' object has no attribute 'awq_dequantize'",
      [],
      'missing-dependency',
    ],
    ['AttributeError', "module 'triton.language' has no attribute 'bfloat16'", [], 'dependency-mismatch'],
    // A call into a package built for another version of it.
    ['TypeError', 'varlen_fwd() takes 14 positional arguments but 15 were given', [], 'dependency-mismatch'],
    [
      'TypeError',
      "BatchDecodeWithPagedKVCacheWrapper.plan() got an unexpected keyword argument 'k_data_type'",
      [],
      'dependency-mismatch',
    ],
    [
      'TypeError',
      "AutoImageProcessor.register() got multiple values for argument 'exist_ok'",
      [],
      'dependency-mismatch',
    ],
    // A kernel's own call the GPU runtime refused names no setting; a dtype an op lacks is a setting's.
    [null, 'CUDA error: invalid argument', [], 'other'],
    ['RuntimeError', '[TM][ERROR] CUDA runtime error: invalid argument /src/allocator.h:262', [], 'other'],
    ['NotImplementedError', '"fill_cuda" not implemented for \'Float4_e2m1fn_x2\'', [], 'config-invalid'],
    // A device allocator's refusal (`device/GPU` is no path); Triton's and LLVM's lowering of a kernel.
    [null, "alloc: can't allocate 568118476 Bytes of memory on device/GPU", [], 'oom-gpu'],
    [null, 'Native API returns: -6 (PI_ERROR_OUT_OF_HOST_MEMORY)', [], 'oom-gpu'],
    [null, "error: Unsupported conversion from 'f8E4M3FN' to 'f16'", [], 'kernel-compile'],
    [null, 'UNREACHABLE executed at SPIRVUtil.cpp:2037!', [], 'kernel-compile'],
    // A GEMM that failed as it ran: a kernel before it broke the context, as an illegal access does.
    [
      'RuntimeError',
      'CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx(...)`',
      [],
      'illegal-memory-access',
    ],
    [
      'importlib.metadata.PackageNotFoundError',
      'No package metadata was found for flashinfer_python',
      [],
      'missing-dependency',
    ],
    // TensorRT's own allocator; ggml's buffer the backend could not give.
    [
      null,
      '[virtualMemoryBuffer.cpp::resizePhysical::140] Error Code 2: OutOfMemory (no further information)',
      [],
      'oom-gpu',
    ],
    [null, 'GGML_ASSERT(base != NULL && "backend buffer base cannot be NULL") failed', [], 'oom-gpu'],
    // vLLM found no GPU it could reach (fresh-s vllm-5166); Slurm's report of the kernel's OOM killer.
    [null, 'No platform detected, vLLM is running on UnspecifiedPlatform', [], 'driver-cuda-mismatch'],
    [
      null,
      'error: Detected 2 oom_kill events in StepId=1454668.batch. Some of the step tasks have been OOM Killed.',
      [],
      'other',
    ],
    // Other runtimes' words for device memory (sets s and t: ROCm's HSA, Intel's Level Zero, XLA on TPU).
    [
      null,
      'Aborting with error : HSA_STATUS_ERROR_OUT_OF_RESOURCES: The runtime failed to allocate the necessary resources.',
      [],
      'oom-gpu',
    ],
    [
      'RuntimeError',
      'level_zero backend failed with error: 40 (UR_RESULT_ERROR_OUT_OF_RESOURCES)',
      [],
      'oom-gpu',
    ],
    [
      'jax.errors.JaxRuntimeError',
      'RESOURCE_EXHAUSTED: E0100: RuntimeBufferAllocationFailure:',
      [],
      'oom-gpu',
    ],
    [
      null,
      'Error allocating device buffer: Attempting to allocate 5.24G. That was not possible. There are 2.80G free.',
      [],
      'oom-gpu',
    ],
    // The host's own resources: no category is the host's disk or memory.
    [null, 'ggml_aligned_malloc: insufficient memory (attempted to allocate 44668.09 MB)', [], 'other'],
    [null, 'model requires more system memory (5.5 GiB) than is available (3.4 GiB)', [], 'other'],
    ['OSError', "[Errno 122] Disk quota exceeded: '/home/u/.cache/vllm/torch_compile_cache/x'", [], 'other'],
    [null, 'CUDA error 9 at ggml-cuda.cu:6862: invalid configuration argument', [], 'other'],
    // A model's hyperparameters a build does not know; a context parameter the server was given.
    [null, 'llama.cpp:10939: GGML_ASSERT(hparams.n_swa > 0) failed', [], 'model-unsupported-arch'],
    [
      null,
      'llama-context.cpp:1220: GGML_ASSERT((cparams.causal_attn || cparams.n_ubatch >= n_tokens_all) && "non-causal attention requires n_ubatch >= n_tokens") failed',
      [],
      'config-invalid',
    ],
    [
      null,
      "ggml_metal_graph_compute_block_invoke: error: unsupported op 'SSM_CONV'",
      [],
      'model-unsupported-arch',
    ],
    ['AssertionError', 'assert param_data.shape == loaded_weight.shape', [], 'model-load-weights'],
    [
      'ValueError',
      'No valid attention backend found for cuda with AttentionSelectorConfig(head_size=64, kv_cache_dtype=fp8_ds_mla)',
      [],
      'config-invalid',
    ],
    [
      'RuntimeError',
      "Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method",
      [],
      'config-invalid',
    ],
    [
      'AssertionError',
      'The choosen size 50432 is not compatible with sharding on 3 shards',
      [],
      'config-invalid',
    ],
    [
      'ValueError',
      "The reasoning parser glm47 is not in the parser list: dict_keys(['internlm', 'qwen3'])",
      [],
      'config-invalid',
    ],
    // A TensorRT-LLM engine's config read by another version; a config file that is no JSON.
    [
      null,
      "unexpected error when creating modelInstanceState: [json.exception.out_of_range.403] key 'tokens_per_block' not found",
      [],
      'dependency-mismatch',
    ],
    [
      null,
      'Failed to create instance: [json.exception.parse_error.101] parse error at line 1, column 1: syntax error',
      [],
      'config-invalid',
    ],
    [
      'ImportError',
      'bitsandbytes version is wrong. Please install bitsandbytes>=0.46.1.',
      [],
      'dependency-mismatch',
    ],
    [
      'RuntimeError',
      'cutlass_gemm_caller, /workspace/csrc/cutlass_gemm_caller.cuh:62, Error Internal',
      [],
      'gpu-arch-unsupported',
    ],
    [null, 'CUDA error 3 at ggml-cuda.cu:5661: initialization error', [], 'driver-cuda-mismatch'],
    [
      null,
      'llama_model_load: error loading model: vk::PhysicalDevice::createDevice: ErrorExtensionNotPresent',
      [],
      'driver-cuda-mismatch',
    ],
    [
      'RuntimeError',
      'SetPrecisionMode:torch_npu/csrc/framework/LazyInitAclops.cpp:155 NPU function error: at_npu::native::AclSetCompileopt',
      [],
      'driver-cuda-mismatch',
    ],
    [null, 'Watchdog timeout (self.watchdog_timeout=300)', [], 'distributed-nccl'],
    ['RuntimeError', 'open: Address family not supported by protocol', [], 'network-port'],
    [
      'NotImplementedError',
      "Could not run '_C_cache_ops::reshape_and_cache' with arguments from the 'CPU' backend.",
      [],
      'abi-or-symbol',
    ],
    // A registry of architectures asked for one it lacks; vLLM's inspection of one that failed.
    ['KeyError', "'Qwen2ForCausalLM'", [], 'model-unsupported-arch'],
    [
      'ValueError',
      "Model architectures ['LlamaForCausalLM'] failed to be inspected. Please check the logs for more details.",
      [],
      'model-unsupported-arch',
    ],
    ['KeyError', "'model.embed_tokens.weight'", [], 'model-load-weights'],
    [null, 'panic: runtime error: invalid memory address or nil pointer dereference', [], 'other'],
    [null, 'panic: runtime error: slice bounds out of range [:340] with capacity 339', [], 'other'],
    // libc++'s own name is no ABI mismatch; glibc's heap checks are a program's bug whatever their words.
    [
      null,
      'libc++abi: terminating due to uncaught exception of type std::runtime_error: [metal::malloc] Resource limit exceeded',
      [],
      'other',
    ],
    [null, 'malloc(): unsorted double linked list corrupted', [], 'other'],
    [null, 'free(): invalid pointer', [], 'other'],
    [
      null,
      'Callback: Queue 0x7f5b aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation resulted in a hardware exception. code: 0x1016',
      [],
      'illegal-memory-access',
    ],
    [null, 'Download encountered an error:', [], 'auth-or-download'],
    [
      null,
      '[TensorRT-LLM][ERROR] Assertion failed: Failed: MPI error mpiUtils.cpp:211',
      [],
      'distributed-nccl',
    ],
    [
      null,
      '[TensorRT-LLM][ERROR] Assertion failed: max_context_len <= mMaxContextLength',
      [],
      'config-invalid',
    ],
    [
      'RuntimeError',
      'CUDA error: no kernel image is available for execution on the device',
      [],
      'gpu-arch-unsupported',
    ],
    ['ImportError', '/x/_C.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEi', [], 'abi-or-symbol'],
    ['ImportError', '/x/common_ops.abi3.so: undefined symbol: cuGreenCtxDestroy', [], 'driver-cuda-mismatch'],
    ['ModuleNotFoundError', "No module named 'tilelang'", [], 'missing-dependency'],
    // Ascend's CANN and Intel's SYCL runtimes in their own words.
    [
      null,
      'rtGetDeviceCount execution failed, reason=driver error:internal error',
      [],
      'driver-cuda-mismatch',
    ],
    [
      null,
      'llama_model_load: error loading model: DeviceList is empty. -30 (PI_ERROR_INVALID_VALUE)',
      [],
      'driver-cuda-mismatch',
    ],
    [
      'RuntimeError',
      'call aclnnSwiGlu failed, detail:EZ1001: Get path and read binary_info_config.json failed, please check if the opp_kernel package is installed!',
      [],
      'missing-dependency',
    ],
    [
      null,
      'llama_model_load: error loading model: make_cpu_buft_list: no CPU backend found',
      [],
      'missing-dependency',
    ],
    ['RuntimeError', 'ACL stream synchronize failed, error code:507035', [], 'illegal-memory-access'],
    [
      'RuntimeError',
      'call aclnnQuantMatmulWeightNz failed, detail:E69999: op[QuantBatchMatmulV3], this platform only support output transpose_x1 false and transpose_x2 true',
      [],
      'gpu-arch-unsupported',
    ],
    // The kernel's OOM killer is the host's memory, not the GPU's: what the message is about decides.
    [
      null,
      'A worker died or was killed while executing a task by an unexpected system error. (1) the process was killed by the OOM killer due to high memory usage',
      [],
      'distributed-ray',
    ],
    [
      null,
      'Failed to initialize executor on rank 0: rmsnorm(at::Tensor&, double)::<lambda()> failed to dispatch data type Float',
      [],
      'config-invalid',
    ],
    [
      'RuntimeError',
      'flashinfer-cubin version (0.6.3) does not match flashinfer version (0.6.4)',
      [],
      'dependency-mismatch',
    ],
    [
      'ImportError',
      'libcudart.so.12: cannot open shared object file: No such file or directory',
      [],
      'dependency-mismatch',
    ],
    [
      'huggingface_hub.errors.GatedRepoError',
      '401 Client Error. Cannot access gated repo',
      [],
      'auth-or-download',
    ],
    [
      'OSError',
      '[Errno 98] error while attempting to bind on address: address already in use',
      [],
      'network-port',
    ],
    [
      'torch.distributed.DistBackendError',
      'NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error',
      [],
      'distributed-nccl',
    ],
    ['ray.exceptions.RayTaskError', 'ray::RayWorkerWrapper.execute_method() failed', [], 'distributed-ray'],
    [
      'triton.runtime.errors.OutOfResources',
      'out of resource: shared memory, Required: 147456, Hardware limit: 101376',
      [],
      'kernel-compile',
    ],
    [
      'RuntimeError',
      'Error building extension',
      [frame('/x/torch/utils/cpp_extension.py')],
      'kernel-compile',
    ],
    ['ValueError', "Model architectures ['Foo'] are not supported for now", [], 'model-unsupported-arch'],
    [
      'safetensors_rust.SafetensorError',
      'Error while deserializing header: HeaderTooLarge',
      [],
      'model-load-weights',
    ],
    [
      'ValueError',
      'Total number of attention heads (40) must be divisible by tensor parallel size (3)',
      [],
      'config-invalid',
    ],
    ['AssertionError', 'Error in memory profiling', [], 'other'],
    [null, 'something happened', [], 'other'],
  ] as const)('%s: %s -> %s', (exception, message, frames, category) => {
    expect(classifyCause({ exception, message, frames: [...frames], phase: null }).category).toBe(category);
  });

  it('says what placed it, marked by its evidence', () => {
    const general = classifyCause({
      exception: 'RuntimeError',
      message: 'Error building extension',
      frames: [frame('/x/torch/utils/cpp_extension.py')],
      phase: 'start-up',
    });
    expect(general.basis).toEqual([
      'message: "error building extension"',
      'raised in /x/torch/utils/cpp_extension.py',
      'during start-up',
    ]);
    expect(general.meaning).toMatch(/compile/);
  });

  it('leaves paths out of the evidence: a folder named sm100 is not a GPU architecture', () => {
    const general = classifyCause({
      exception: 'ImportError',
      message: '/usr/lib/sgl_kernel/sm100/common_ops.abi3.so: undefined symbol: _ZNK3c106SymInt',
      frames: [],
      phase: null,
    });
    expect(general.category).toBe('abi-or-symbol');
  });

  it('has one rule and a meaning for every category', () => {
    expect(CATEGORY_RULES.map((r) => r.category).sort()).toEqual([...CATEGORIES].sort());
    for (const rule of CATEGORY_RULES) expect(rule.meaning.length).toBeGreaterThan(40);
  });
});

describe('searchUrl', () => {
  it('searches the message without what varies between machines', () => {
    const url = searchUrl('RuntimeError', "CUDA error at /home/me/x.cu:12: device 3 'weights.bin' failed");
    expect(url.slice(url.indexOf('q=') + 2)).toBe('RuntimeError+CUDA+error+at+device+failed');
  });

  it('leaves out keys, tokens and ids, which must not leave the machine', () => {
    const url = searchUrl(
      'RuntimeError',
      'cannot fetch config with token hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567 (OPENAI_API_KEY=sk-proj-Ab3dEf6hIj9kLm)',
    );
    expect(url).not.toMatch(/hf_AbCd|sk-proj|Ab3dEf/);
    expect(url).toContain('cannot+fetch+config+with+token');
  });
});
