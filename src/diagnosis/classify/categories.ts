import { HEAP_CHECKS, STACK_CHECKS } from '../../runtimes/cpp/heap-checks.js';
import type { Category } from '../../types/diagnosis.js';

/**
 * What places a failure no signature knows in one of the categories, from what any failure shows: its
 * exception class and module, the words of its message, the package it was raised in, the phase. Each
 * kind of evidence has its weight (classify-cause.ts); a category's rows are alternatives.
 */
export interface CategoryRule {
  category: Category;
  /** What failures of this category mean, said to an operator, with where to look first. */
  meaning: string;
  /** Exception classes, matched against the last dotted segment (`torch.OutOfMemoryError`). */
  exceptions?: RegExp;
  /** The classes are ones any code raises (`ValueError`): they weigh little by themselves. */
  genericExceptions?: boolean;
  /** The exception's module path or the raise site's file (`flashinfer/`, `huggingface_hub`). */
  packages?: RegExp;
  /** Words of the message (and its continuation lines). */
  words?: RegExp;
}

/**
 * A program's own bug, whatever words it holds (`panic: runtime error: index out of range`, a C++
 * `std::length_error`, glibc's heap checks, a GPU runtime's `invalid argument` from a kernel's own call): no
 * setting or package is named, so no kind but `other` is said.
 */
export const PROGRAM_BUG = new RegExp(
  String.raw`\bruntime error: (?:invalid memory address|index out of range|slice bounds out of range|integer divide by zero)|nil pointer dereference|std::(?:length_error|out_of_range|bad_alloc\b(?!.*memory))|\b(?:CUDA|HIP)(?: runtime)? error\b.{0,60}?\binvalid (?:argument|resource handle)\b|\binvalid configuration argument\b|${HEAP_CHECKS}|${STACK_CHECKS}`,
);

/**
 * The host's own resources ran out (its disk, its quota, its system memory): none of the categories,
 * which are the GPU's, the engine's and its packages', says what to do, so `other` is said.
 */
export const HOST_RESOURCE =
  /\bDisk quota exceeded\b|\bNo space left on device\b|\bsystem memory\b|\bhost memory\b|\bCPU buffer\b|\bggml_aligned_malloc\b|\boom[_-]kill|\bOOM[ -]Killed\b/i;

/** huggingface_hub's own errors (their last dotted segment): what it makes of a request that failed under it. */
export const HUB_ERRORS =
  /^(?:GatedRepoError|RepositoryNotFoundError|RevisionNotFoundError|EntryNotFoundError|LocalEntryNotFoundError|HfHubHTTPError|OfflineModeIsEnabled)$/;

/** Ordered most specific first: on equal evidence the earlier category wins. */
export const CATEGORY_RULES: readonly CategoryRule[] = [
  {
    category: 'kv-cache-insufficient',
    meaning:
      'The memory left for the KV cache after the weights (and CUDA graphs) is too small for the context length or batch asked for. Lower --max-model-len or the batch size, or raise the memory fraction the engine may use.',
    words:
      /\bKV cache\b|\bcache blocks\b|num_gpu_blocks|gpu_memory_utilization|mem[-_]fraction[-_]static|max[ _]total[ _]num[ _]tokens|max batch total tokens|larger than the maximum number of tokens that can be stored|NoFreeBlocksError|Failed to allocate token prealloc/i,
  },
  {
    category: 'oom-gpu',
    meaning:
      'The GPU ran out of memory: the model, its activations or another process on the same GPU need more than it has. Check what else holds GPU memory (nvidia-smi), then use more GPUs (tensor parallelism), a quantised model, or a smaller batch or context.',
    exceptions: /^(?:OutOfMemoryError|CudaOutOfMemory)$/,
    words:
      /\bout of memory\b|\bfree memory\b.{0,80}\bless than\b|CUDA_ERROR_OUT_OF_MEMORY|cudaMalloc failed|\bOOM\b(?! killer)|failed to allocate .*(?:device|GPU|CUDA|VRAM)|insufficient (?:GPU |device )?memory|not enough (?:GPU |device )?memory|CUBLAS_STATUS_(?:NOT_INITIALIZED|ALLOC_FAILED)|OUT_OF_DEVICE_MEMORY|OutOfDeviceMemory|\bmemory allocation of size \d+ failed|failed to allocate (?:\w+ )?buffer\b|can'?t allocate \d+ bytes of memory\b|cannot allocate memory on (?:host|device)|OUT_OF_(?:HOST|DEVICE)_MEMORY|\ballocation fail(?:ed|ure)\b|\bPT_DEVMEM\b|\bError Code 2: OutOfMemory\b|backend buffer base cannot be NULL|Failed to allocate memory for \S+ with size \d+|\b\w+_OUT_OF_RESOURCES\b|\bRESOURCE_EXHAUSTED\b.{0,80}AllocationFailure\b|\bAttempting to (?:allocate|reserve) [\d.]+\s?[KMGT]i?B?\b.{0,80}\bnot possible\b/i,
  },
  {
    category: 'illegal-memory-access',
    meaning:
      'A GPU kernel read or wrote memory it does not own: usually a bug in a kernel or a mismatch between a kernel and the shapes it is given. Rerun with CUDA_LAUNCH_BLOCKING=1 to find the kernel, and look for a fix in a newer engine or kernel library release.',
    words:
      /illegal memory access|CUDA_ERROR_ILLEGAL_ADDRESS|misaligned address|device-side assert triggered|Device-side assertion `|block: \[\d+,\d+,\d+\], thread: \[\d+,\d+,\d+\] Assertion `|unspecified launch failure|illegal instruction was encountered|HSA_STATUS_ERROR_EXCEPTION|hardware exception|Memory access fault by GPU|Out-Of-Bounds Memory Access|out of bounds memory access|CUBLAS_STATUS_EXECUTION_FAILED|\bvector core exception\b|\berror code(?::| is) ?507035\b/i,
  },
  {
    category: 'gpu-arch-unsupported',
    meaning:
      "The GPU's architecture (compute capability) is not one the engine, a kernel or a data type was built for. Check the GPU's compute capability against what the engine's build or the quantisation method supports; use a build for this GPU or another method.",
    words:
      /no kernel image is available|compute capability|requires capability \d+|current (?:compute )?capability|\bsm_?\d{2,3}\b|(?:amdgpu|\bgfx\d+\w*) is not supported|Minimum capability|only supports? (?:Ampere|Hopper|Blackwell|Ada|Turing|Volta)|(?:Ampere|Hopper|Turing|Volta) GPUs? or newer|current GPU|(?:GPU|card|device) (?:is )?too old|only supported on (?:GPUs|devices|Ampere|Hopper)|(?:requires|needs) (?:an? )?(?:Ampere|Hopper|Blackwell|Ada|Volta|Turing)|not supported on (?:this|your|the current) (?:GPU|device|platform)|\bthis platform only supports?\b|unsupported (?:GPU|architecture|arch)\b|CUDA capability|invalid device function|for GPU arch\b|unable to find an engine to execute|Could not initialize Tensile host|TensileLibrary\S*\.dat\b.*\bfor GPU arch|No valid \w+ (?:GEMM )?tactic|(?:failed to find|no) (?:a )?kernel (?:that can implement|(?:is )?available for)|cutlass_gemm_caller\b.*\bError Internal\b|not implemented for (?:Blackwell|Hopper|Ampere|Ada|Turing|Volta)\b|\bnot support soc version\b|\bsupport for Ascend\w* is not implemented\b/i,
  },
  {
    category: 'driver-cuda-mismatch',
    meaning:
      "The NVIDIA driver and the CUDA the engine was built with do not fit together: the driver is too old for the CUDA runtime, or it cannot be reached from here (a container without the GPU runtime). Compare `nvidia-smi`'s CUDA version with the engine's, and update the driver or use a build for this CUDA.",
    exceptions: /^NVMLError\w*$/,
    packages: /\bpynvml\b|\bnvml\b/,
    words:
      /driver version is insufficient|undefined symbol: cu[A-Z]\w*|NVIDIA driver|CUDA driver|forward compatibility|libcuda\.so|\bcuInit\b|\bNVML\b|no CUDA-capable device|CUDA_ERROR_(?:NO_DEVICE|SYSTEM_DRIVER_MISMATCH|COMPAT_NOT_SUPPORTED|UNSUPPORTED_PTX_VERSION|INVALID_IMAGE)|Found no NVIDIA driver|unsupported display driver|device kernel image is invalid|PTX was compiled with an unsupported toolchain|unsupported PTX version|nvidia-container-cli|could not select device driver|\bCUDA error\b.{0,120}\binitialization error\b|\bNPU function error\b|\bdriver error\b|\bDeviceList is empty\b|\bNo platform detected\b|\bError(?:ExtensionNotPresent|IncompatibleDriver|InitializationFailed)\b/i,
  },
  {
    category: 'distributed-nccl',
    meaning:
      'The GPUs could not talk to each other: NCCL or torch.distributed failed to set up or timed out. Check that every rank can reach the others (NCCL_DEBUG=INFO shows where it stops), the network interfaces (NCCL_SOCKET_IFNAME), peer-to-peer support and shared memory (--shm-size in containers).',
    exceptions: /^(?:DistBackendError|DistNetworkError|DistStoreError)$/,
    packages: /\bnccl\b|torch\/distributed|c10d|pynccl|custom_all_reduce/i,
    // RDMA's own words too: a queue pair's completion status as ibverbs spells it (`Local protection error`).
    words:
      /\bNCCL\b|\bMPI error\b|\bOpen MPI\b|\borte_init\b|\bPRTE ERROR\b|\bORTE_ERROR_LOG\b|\bRead -1, expected \d+|ProcessGroupNCCL|\bnccl\w*Error\b|\bc10d\b|collective operation timeout|monitoredBarrier|\bfaulty rank\b|rendezvous|torch\.distributed|all_?reduce|init_process_group|\bwatchdog\b|Engine iteration timed out|\bHCCL\b|\bnvshmem\w*|\bibv_\w+|\bRDMA\b|\brdma_\w+|\bRoCE\b|\bmlx5_\d|\bInfiniBand\b|\b(?:Local (?:protection|length|QP operation) error|Remote (?:access|operation|invalid request) error|(?:Transport|RNR) retry counter exceeded)\b/i,
  },
  {
    category: 'distributed-ray',
    meaning:
      'Ray, which runs the workers of a multi-node or multi-GPU deployment, could not place or keep them: a node or actor died, or the cluster lacks the resources asked for. Check `ray status` and the raylet logs on each node.',
    exceptions:
      /^(?:RayTaskError|RayActorError|ActorDiedError|RaySystemError|GetTimeoutError|ObjectLostError)$/,
    packages: /(?:^|[/.])ray(?:[/.]|$)/,
    words:
      /\bRay\b|\braylet\b|placement[ _]group|\bGCS\b|ray\.exceptions|ray cluster|current_node_resource|bundle_group|A worker died or was killed while executing a task|RayWorkerWrapper/,
  },
  {
    category: 'auth-or-download',
    meaning:
      "The model's files could not be fetched: the repository is gated or private, the token is missing or wrong, the hub cannot be reached, or offline mode is on without a local copy. Check HF_TOKEN, access to the repository, and network access to the hub.",
    exceptions: HUB_ERRORS,
    packages: /huggingface_hub|modelscope|hf_transfer/,
    words:
      /(?<!\.)\b(?:401|403)\b|\bgated\b|Unauthorized|access token|HF_TOKEN|huggingface\.co|offline mode|HF_HUB_OFFLINE|not a valid model identifier|couldn't connect to|Repository Not Found|download(?:ing)? (?:failed|error)|\bHF API\b|\bdownload\w* encountered an error|pull model manifest/i,
  },
  {
    category: 'network-port',
    meaning:
      'A network address could not be used: the port is already taken (another server, an older instance still running) or the host name does not resolve. Find what holds the port (`ss -ltnp`) or choose another.',
    words:
      /address already in use|EADDRINUSE|couldn't bind|could not bind|\bbind: |listen tcp|socket address|\[Errno 98\]|\bbind(?:ing)?\b.*\b(?:failed|error)\b|\bport\b.*\b(?:in use|taken|unavailable)\b|Name or service not known|Temporary failure in name resolution|Cannot assign requested address|Address family not supported/i,
  },
  {
    category: 'kernel-compile',
    meaning:
      'A GPU kernel failed to compile or does not fit the GPU (Triton, nvcc, ninja or a JIT cache): a compiler or its headers are missing, the kernel asks for more shared memory or registers than the GPU has, or the cached build is stale. Read the compiler line, and clear the JIT cache after changing versions.',
    exceptions: /^(?:CompilationError|OutOfResources|CalledProcessError)$/,
    packages: /\btriton\b|torch\/utils\/cpp_extension|\bjit\b|torch\/_inductor|deep_gemm|cutlass/,
    // A compiler that is not there at all (`nvcc: not found`) is missing-dependency's, not a compile error.
    words:
      /\b(?:ninja|nvcc)\b(?!:? (?:command )?not found|')|\bptxas\b|\bcompil(?:e|ation|ing)\b|\bJIT\b|out of resource|shared memory, Required|fatal error: \S+\.h|cannot find -l\w+|collect2|returned non-zero exit status|\bld returned\b|\bgcc\b|\bcicc\b|error building extension|Error in function '\w+Dispatched'|UNREACHABLE executed|LLVM ERROR|PassManager::run failed|MLIR pass pipeline|Unsupported (?:conversion from|rounding mode)/i,
  },
  {
    category: 'abi-or-symbol',
    meaning:
      'A compiled library does not fit the one it was built against: a symbol it needs is missing (a wheel built for another torch, CUDA or glibc). Reinstall the extension for the torch and CUDA you have, or pin the versions it was built with.',
    words:
      /undefined symbol|Symbol not found|symbol lookup error|GLIBC(?:XX)?_\d|version `[^`']+' not found|_ZN\w+|(?<![+\w])ABI\b|was compiled against|Could not run '\S+' with arguments from the '\w+' backend/i,
  },
  {
    category: 'dependency-mismatch',
    meaning:
      'Two installed packages are at versions that do not work together (a library newer or older than the engine expects). Compare the versions the message names with what the engine requires, and install matching ones.',
    words:
      /versions?\b.{0,80}?(?:does not match|do not match|mismatch|incompatible|is not supported|but (?:found|got|have))|(?:does not match|mismatch).{0,40}\bversion|(?:requires|needs|expects?)\s+[\w.-]+\s*(?:[><=]=?|~=)\s*\d|incompatible with|not compatible with|cannot import name|(?<!Config' object |'_OpNamespace' '\w+' object )has no attribute|unexpected keyword argument|got an unexpected|got multiple values for (?:keyword )?argument|Mismatched number of arguments|takes \d+ positional arguments? but \d+ (?:were|was) given|please (?:upgrade|update|downgrade)|is (?:too )?(?:old|new)er? than|out of date|(?<!not available or )outdated|minimum required version|less than the (?:minimum|required)|installed with version|\b(?:or (?:less|lower|older|earlier|newer|greater|higher|later))\b.{0,20}\b(?:got|found|have)\b|lib(?:cudart|cublas\w*|cudnn\w*|nccl|nvrtc|nvJitLink|cusparse\w*)\.so\.\d+: cannot open shared object|json\.exception\.out_of_range|\bversion is wrong\b|\binstall [\w.-]+\s*(?:>=|==|~=)\s*\d/i,
  },
  {
    category: 'missing-dependency',
    meaning:
      "A package, library or tool the engine needs is not installed where it runs. Install the package the message names (the engine's optional extras often carry it) in the server's own environment.",
    exceptions: /^ModuleNotFoundError$/,
    words:
      /No module named|No package metadata was found for|Library not loaded:|\bnot available or outdated\b|is not installed|package is installed|\bno \w+ backend found\b|Failed to find C compiler|not installed\b|please install|pip install|requires "?[\w.-]+"? to be installed|command not found|cannot open shared object file|No such file or directory: '[^']*(?:bin|lib)\/|could not find (?:the )?\w+ (?:library|package|binary)|requires the \S+ (?:library|package)|'_OpNamespace' '\w+' object has no attribute|\b(?:nvcc|ninja|gcc|g\+\+|cmake|make):? (?:command )?not found|No such file or directory: '(?:nvcc|ninja|gcc|g\+\+|cmake|make)'/i,
  },
  {
    category: 'model-unsupported-arch',
    meaning:
      "The engine, at this version, does not know the model's architecture or one of its parts. Check the engine's supported-models list; a newer release (or trust_remote_code for custom code) may add it.",
    words:
      /architectures? .{0,60}(?:not supported|unsupported|not recognized|unknown)|(?:unknown|unsupported|unrecognized) (?:model )?(?:architecture|model type|arch)\b|model type .{0,40}not recognized|does not (?:support|recognize) (?:this|the) (?:model|architecture)|trust_remote_code|unknown pre-tokenizer|is not supported for now|not yet supported|not supported for (?:this model|AutoModel)|wrong number of tensors|GGML_ASSERT\(.*\bhparams\.|\bunsupported op\b|failed to be inspected|'\w*Config' object has no attribute|^KeyError: '\w+For(?:CausalLM|ConditionalGeneration|SequenceClassification)'|\bunknown projector type\b/i,
  },
  {
    category: 'model-load-weights',
    meaning:
      "The model's files could not be read as the model: a checkpoint is incomplete or corrupt, its shapes or keys do not fit the architecture or the quantisation, or the path is wrong. Check the download (sizes, hashes), the path, and that the quantisation matches the checkpoint.",
    exceptions: /^(?:SafetensorError|HeaderTooLarge|UnpicklingError)$/,
    packages: /safetensors|model_loader|weight_utils|gguf|modeling_utils/,
    words:
      /\bsafetensors?\b|\bcheckpoint\b|\bweights?\b|state_dict|size mismatch|shape mismatch(?!: value tensor)|Missing key|Unexpected key|\bgguf\b|llama_model_load|magic number|\btensor\b.{0,40}(?:not found|missing|shape)|corrupt|incomplete|\bloaded_weight\b|no module or parameter named|\breached (?:the )?end of (?:the )?file\b/i,
  },
  {
    category: 'config-invalid',
    meaning:
      "An argument or setting is wrong or does not fit the others (a value out of range, two options that exclude each other, a size that must divide another). The message names the setting: fix it in the server's arguments or config file.",
    exceptions:
      /^(?:ValidationError|ArgumentError|ArgumentTypeError|ValueError|TypeError|KeyError|AssertionError|ConfigError)$/,
    genericExceptions: true,
    packages: /arg_utils|config\.py|server_args|argparse|pydantic/,
    words:
      /\binvalid\b|\bmust be\b|is not supported for quantization|world[_ ]size|tensor[_ -]parallel[_ -]size|\btp[_-]size\b|num[_-]shard|max[_-]model[_-]len|max_?context_?len(?:gth)?|chat template|Supported (?:dtypes|values|options|choices)\b|\bshould be\b|divisible by|not a valid|unrecognized arguments?|invalid choice|expected .{0,40} got|(?<!keyword |values for |number of )\bargument\b|not implemented for '[\w ]+'|\bflag\b|--[a-z][\w-]+|out of range|cannot be (?:used|combined) with|mutually exclusive|is not allowed|(?:failed to dispatch|unsupported|not supported for) (?:the )?(?:data ?type|dtype)\b|\b(?:data ?type|dtype) \S+ (?:is )?not supported|permission denied|\bEACCES\b|not valid for this configuration|max[_-]num[_-](?:batched[_-]tokens|seqs)|(?:dtype|data_type)\b.{0,60}\bdoes not match|is not available on (?:CPU|GPU|this)|No valid attention backend|Cannot re-initialize CUDA in forked subprocess|GGML_ASSERT\(.*\bcparams\.|\bis not in the \w+ list\b|json\.exception\.parse_error|\bparse error at line\b|\bsharding\b|\bon \d+ shards\b|does not support K-shift|shapes cannot be multiplied|\bunsupported [a-z\d]+_[a-z_]+ for\b|No adapter found for\b|expected scalar type \w+ but found|\bonly supported (?:for|with|by|when)\b|\brequires flash[_ ]attn\b|\bunsupported connector type\b/i,
  },
  {
    category: 'other',
    meaning:
      "The failure does not fall into a known kind. Read the root-cause message and where it was raised, and search the engine's issues for it.",
  },
];

/**
 * A death that names no cause (a segfault, an abort, glibc's heap check) says where it happened in the
 * stack it prints after it: a crash inside NCCL's calls is the GPUs failing to talk to each other.
 */
export const CRASH_SITE_CATEGORIES: readonly { category: Category; frames: RegExp }[] = [
  {
    category: 'distributed-nccl',
    frames:
      /\bnccl[A-Z]\w*|\blibnccl\b|\bpynccl\w*|\bProcessGroupNCCL\b|\bc10d::|\ball_?reduce\w*|\baddProxyOp\w*/,
  },
];
