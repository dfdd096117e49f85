import { defineSignature } from '../define-signature.js';

export default defineSignature({
  id: 'trtllm-mpi-world-size-mismatch',
  title: 'TensorRT-LLM started with a different number of MPI ranks than the engine needs',
  category: 'config-invalid',
  engines: ['trtllm'],
  keywords: ['mpisize == tp * pp', 'mpi size', 'runtime world size'],
  match: {
    // worldConfig.cpp (old: TLLM_CHECK(mpiSize == tp * pp); new: "MPI size %d != TP size %d * PP size %d[ * CP
    // Size %d]") and the Python runners' "Engine world size (%d) != Runtime world size (%d)".
    message:
      /Assertion failed: mpiSize == tp \* pp|MPI size \d+ != TP size \d+ \* PP size \d+|Engine world size \(\d+\) != Runtime world size \(\d+\)/,
  },
  explanation:
    'The engine was built for tensor-parallel x pipeline-parallel ranks (one GPU each), and TensorRT-LLM expects ' +
    'exactly that many MPI processes. The runtime was started with another number, usually a single process ' +
    '(`MPI size: 1` in the log) for an engine built with tp_size or pp_size above 1.',
  fix:
    'Launch one process per rank: `mpirun -n <tp_size x pp_size> --allow-run-as-root python3 run.py ...` (Triton: ' +
    '`launch_triton_server.py --world_size <tp_size x pp_size>`).',
  alternative:
    'Or rebuild the engine for the number of GPUs you want to run it on (trtllm-build --tp_size/--pp_size).',
  references: ['https://github.com/NVIDIA/TensorRT-LLM/blob/main/cpp/tensorrt_llm/runtime/worldConfig.cpp'],
});
